#include "ui/calibration/labels_path_edit.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

#include "ui/calibration/data_paths_editor.h"

namespace ql::ui {

LabelsPathEdit::LabelsPathEdit(QWidget* parent) : QWidget(parent), mEdit(new QLineEdit(this)) {
    mEdit->setPlaceholderText(tr("optional .npy of class indices, for accuracy"));
    mEdit->setClearButtonEnabled(true);
    connect(mEdit, &QLineEdit::textChanged, this, &LabelsPathEdit::pathChanged);
    auto* browse = new QToolButton(this);
    browse->setText(tr("File..."));
    connect(browse, &QToolButton::clicked, this, &LabelsPathEdit::browse);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(mEdit, 1);
    row->addWidget(browse);
}

QString LabelsPathEdit::path() const {
    return mEdit->text().trimmed();
}

void LabelsPathEdit::setPath(const QString& path) {
    mEdit->setText(path);
}

QString LabelsPathEdit::validate() const {
    const QString labels = path();
    if (!labels.isEmpty() && !QFileInfo(labels).isFile()) return tr("Labels: %1 does not exist.").arg(labels);
    return {};
}

void LabelsPathEdit::browse() {
    const QString chosen =
        QFileDialog::getOpenFileName(this, tr("Choose labels"), pickerFolder(path(), mDialogFolder), dataFileFilter());
    if (!chosen.isEmpty()) mEdit->setText(chosen);
}

}  // namespace ql::ui
