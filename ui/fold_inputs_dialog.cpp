#include "ui/fold_inputs_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "core/export/input_folding.h"
#include "ui/model_document.h"

namespace ql::ui {

FoldInputsDialog::FoldInputsDialog(std::shared_ptr<const Model> model, const QStringList& inputs, QWidget* parent)
    : QDialog(parent), mModel(std::move(model)) {
    setWindowTitle(tr("Fix Inputs and Fold"));
    auto* header = new QLabel(tr("These inputs decide an If of %1. Fix them to constants and the If becomes the "
                                 "branch it takes: its layers join the main graph, where they can be planned, "
                                 "calibrated and quantized. The folded model is written to a new file and opened.")
                                  .arg(QString::fromStdString(mModel->fileName())),
                              this);
    header->setWordWrap(true);
    auto* form = new QFormLayout;
    for (const QString& input : inputs) {
        auto* edit = new QLineEdit(this);
        edit->setPlaceholderText(tr("a number, or a .npy file"));
        form->addRow(input, edit);
        mValues.append({input, edit});
        connect(edit, &QLineEdit::textChanged, this, &FoldInputsDialog::suggestOutput);
    }
    mOutput = new QLineEdit(this);
    connect(mOutput, &QLineEdit::textEdited, this, [this] { mOutputEdited = true; });
    form->addRow(tr("Write to"), mOutput);
    mError = new QLabel(this);
    mError->setWordWrap(true);
    mError->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
    mButtons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    mButtons->button(QDialogButtonBox::Ok)->setText(tr("Fold and Open"));
    connect(mButtons, &QDialogButtonBox::accepted, this, &FoldInputsDialog::accept);
    connect(mButtons, &QDialogButtonBox::rejected, this, &FoldInputsDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header);
    layout->addLayout(form);
    layout->addWidget(mError);
    layout->addWidget(mButtons);
    connect(&mWatcher, &QFutureWatcher<Result<QString>>::finished, this, &FoldInputsDialog::finished);
    suggestOutput();
}

FoldInputsDialog::~FoldInputsDialog() {
    mWatcher.waitForFinished();
}

QLineEdit* FoldInputsDialog::valueField(const QString& input) const {
    for (const auto& [name, edit] : mValues)
        if (name == input) return edit;
    return nullptr;
}

QString FoldInputsDialog::errorText() const {
    return mError->text();
}

QString FoldInputsDialog::fixText() const {
    QStringList items;
    for (const auto& [name, edit] : mValues)
        if (!edit->text().trimmed().isEmpty()) items << name + "=" + edit->text().trimmed();
    return items.join(',');
}

// <dir>/<stem>.sr16000.onnx beside the model, until the user types a path of their own.
void FoldInputsDialog::suggestOutput() {
    if (mOutputEdited) return;
    const QFileInfo file(QString::fromStdString(mModel->path()));
    QString suffix;
    for (const auto& [name, edit] : mValues)
        if (!edit->text().trimmed().isEmpty() && !edit->text().contains('/'))
            suffix += "." + name + edit->text().trimmed();
    mOutput->setText(file.dir().filePath(file.completeBaseName() + (suffix.isEmpty() ? ".folded" : suffix) + ".onnx"));
}

void FoldInputsDialog::accept() {
    if (mWatcher.isRunning()) return;
    const QString fix = fixText(), output = mOutput->text().trimmed();
    if (fix.isEmpty()) {
        mError->setText(tr("Give a value to at least one input."));
        return;
    }
    if (output.isEmpty()) {
        mError->setText(tr("Choose the file to write the folded model to."));
        return;
    }
    mError->setText(tr("Folding..."));
    mButtons->button(QDialogButtonBox::Ok)->setEnabled(false);
    setFieldsEnabled(false);
    mWriting = output;
    mWatcher.setFuture(QtConcurrent::run([model = mModel, fix, output]() -> Result<QString> {
        QL_ASSIGN_OR_RETURN(NamedTensors fixed, parseFixedInputs(*model, fix.toStdString()));
        QL_ASSIGN_OR_RETURN(FoldedModel folded, foldFixedInputs(*model, fixed));
        QL_RETURN_IF_ERROR(saveFoldedModel(folded, output.toStdString()));
        QString summary =
            QObject::tr("%1 node(s) in the main graph (was %2)").arg(folded.nodesAfter).arg(folded.nodesBefore);
        for (const std::string& text : folded.foldedIfs) summary += "; folded " + QString::fromStdString(text);
        return summary;
    }));
}

void FoldInputsDialog::finished() {
    mButtons->button(QDialogButtonBox::Ok)->setEnabled(true);
    setFieldsEnabled(true);
    const Result<QString> outcome = mWatcher.result();
    if (!outcome) {
        mError->setText(QString::fromStdString(outcome.status().message()));
        return;
    }
    mError->clear();
    emit folded(mWriting, *outcome);
    QDialog::accept();
}

void FoldInputsDialog::setFieldsEnabled(bool enabled) {
    mOutput->setEnabled(enabled);
    for (const auto& entry : mValues) entry.second->setEnabled(enabled);
}

FoldInputsController::FoldInputsController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document), mWindow(window) {
    mAction = new QAction(tr("Fix Inputs and &Fold..."), this);
    mAction->setToolTip(tr("Fix the inputs that decide an If (Silero VAD's sr) and fold it into the branch it takes"));
    connect(mAction, &QAction::triggered, this, &FoldInputsController::showDialog);
    connect(mDocument, &ModelDocument::modelReplaced, this, &FoldInputsController::update);
    update();
}

void FoldInputsController::update() {
    const Model* model = mDocument->model();
    mAction->setEnabled(model && !inputsDecidingIfs(*model).empty());
}

void FoldInputsController::showDialog() {
    const std::shared_ptr<const Model> model = mDocument->sharedModel();
    if (!model) return;
    QStringList inputs;
    for (const std::string& name : inputsDecidingIfs(*model)) inputs << QString::fromStdString(name);
    if (inputs.isEmpty()) return;
    mDialog = new FoldInputsDialog(model, inputs, mWindow);
    mDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(mDialog, &QObject::destroyed, this, [this] { mDialog = nullptr; });
    connect(mDialog, &FoldInputsDialog::folded, this, [this](const QString& path, const QString& summary) {
        emit message(tr("%1: %2").arg(QFileInfo(path).fileName(), summary));
        emit folded(path);
    });
    mDialog->open();
}

}  // namespace ql::ui
