#include "ui/calibration/data_paths_editor.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

namespace ql::ui {

QString dataFileFilter() {
    return QObject::tr("NumPy arrays (*.npy *.npz);;All files (*)");
}

QString pickerFolder(const QString& path, const QString& fallback) {
    return path.isEmpty() ? fallback : QFileInfo(path).absolutePath();
}

QStringList DataPathsEditor::inputNamesOf(const Graph& graph) {
    QStringList names;
    for (const InputSpec& spec : inputSpecs(graph)) names.append(QString::fromStdString(spec.name));
    return names;
}

DataPathsEditor::DataPathsEditor(const QStringList& inputNames, QWidget* parent)
    : QWidget(parent), mInputNames(inputNames) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < inputNames.size(); ++i) {
        auto* row = new QHBoxLayout;
        auto* edit = new QLineEdit(this);
        edit->setPlaceholderText(tr(".npy or .npz file, or a folder of .npy files or images"));
        edit->setClearButtonEnabled(true);
        edit->setMinimumWidth(360);
        connect(edit, &QLineEdit::textChanged, this, &DataPathsEditor::pathsChanged);
        auto* file = new QToolButton(this);
        file->setText(tr("File..."));
        connect(file, &QToolButton::clicked, this, [this, i] { browse(i, false); });
        auto* folder = new QToolButton(this);
        folder->setText(tr("Folder..."));
        connect(folder, &QToolButton::clicked, this, [this, i] { browse(i, true); });
        row->addWidget(edit, 1);
        row->addWidget(file);
        row->addWidget(folder);
        form->addRow(inputNames.size() == 1 ? tr("Data:") : tr("%1:").arg(inputNames[i]), row);
        mEdits.append(edit);
    }
}

QStringList DataPathsEditor::paths() const {
    QStringList out;
    for (const QLineEdit* edit : mEdits) out.append(edit->text().trimmed());
    return out;
}

void DataPathsEditor::setPath(int input, const QString& path) {
    if (input >= 0 && input < mEdits.size()) mEdits[input]->setText(path);
}

void DataPathsEditor::setPaths(const QStringList& paths) {
    for (int i = 0; i < mEdits.size(); ++i) mEdits[i]->setText(paths.value(i));
}

bool DataPathsEditor::isEmpty() const {
    for (const QString& path : paths())
        if (!path.isEmpty()) return false;
    return true;
}

bool DataPathsEditor::singleArchiveForAll() const {
    const QStringList p = paths();
    if (p.isEmpty() || !p.front().endsWith(QStringLiteral(".npz"), Qt::CaseInsensitive)) return false;
    for (int i = 1; i < p.size(); ++i)
        if (!p[i].isEmpty()) return false;
    return true;
}

std::vector<DataSpec> DataPathsEditor::specs(const ImagePreprocess& image) const {
    const QStringList p = paths();
    std::vector<DataSpec> out;
    for (int i = 0; i < p.size(); ++i) {
        if (p[i].isEmpty()) continue;
        // A lone archive (or the only input) leaves the input unnamed: openDataSource matches members by name.
        const bool unnamed = p.size() == 1 || singleArchiveForAll();
        out.push_back({unnamed ? std::string() : mInputNames[i].toStdString(), p[i].toStdString(), image});
    }
    return out;
}

QString DataPathsEditor::validate(const QString& what) const {
    const QStringList p = paths();
    const bool archive = singleArchiveForAll();
    for (int i = 0; i < p.size(); ++i) {
        const QString input = p.size() == 1 ? QString() : tr(" for input '%1'").arg(mInputNames[i]);
        if (p[i].isEmpty()) {
            if (archive) continue;
            return tr("%1: choose a file or folder%2.").arg(what, input);
        }
        if (!QFileInfo::exists(p[i])) return tr("%1%2: %3 does not exist.").arg(what, input, p[i]);
        if (!QFileInfo(p[i]).isReadable()) return tr("%1%2: %3 cannot be read.").arg(what, input, p[i]);
    }
    return {};
}

void DataPathsEditor::browse(int input, bool folder) {
    const QString start = pickerFolder(mEdits[input]->text().trimmed(), mDialogFolder);
    const QString path = folder ? QFileDialog::getExistingDirectory(this, tr("Choose a data folder"), start)
                                : QFileDialog::getOpenFileName(this, tr("Choose a data file"), start, dataFileFilter());
    if (!path.isEmpty()) mEdits[input]->setText(path);
}

}  // namespace ql::ui
