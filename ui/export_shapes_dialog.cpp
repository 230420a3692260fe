#include "ui/export_shapes_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ql::ui {

QString ExportShapesDialog::rangeText(const InputShapeRange& range) {
    if (range.min == range.opt && range.opt == range.max) return QString::fromStdString(dimsText(range.opt));
    return QString::fromStdString(dimsText(range.min) + ":" + dimsText(range.opt) + ":" + dimsText(range.max));
}

ExportShapesDialog::ExportShapesDialog(const Graph& graph, const TrtexecShapes& shapes, QWidget* parent)
    : QDialog(parent), mGraph(graph), mError(new QLabel(this)) {
    setWindowTitle(tr("TensorRT input shapes"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("These inputs have dynamic dimensions. The trtexec script builds the engine for the shapes below "
           "(--minShapes/--optShapes/--maxShapes): MIN:OPT:MAX, or one shape, each like 1x3x640x640. Filled in "
           "with the shapes calibration ran; left empty, trtexec sets the open dimensions to 1."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    for (const DynamicInput& input : shapes.inputs) {
        const QString prefilled = input.known ? rangeText(input.range) : QString();
        auto* edit = new QLineEdit(prefilled, this);
        edit->setPlaceholderText(QString::fromStdString(input.pattern));
        edit->setToolTip(tr("Declared shape %1").arg(QString::fromStdString(input.declared)));
        const QString name = QString::fromStdString(input.input);
        form->addRow(tr("%1 %2").arg(name, QString::fromStdString(input.declared)), edit);
        mFields.push_back({name, edit, prefilled});
    }
    layout->addLayout(form);
    mError->setWordWrap(true);
    mError->setStyleSheet(QStringLiteral("color: #c0392b"));
    mError->hide();
    layout->addWidget(mError);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportShapesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportShapesDialog::reject);
    layout->addWidget(buttons);
}

QLineEdit* ExportShapesDialog::field(const QString& input) const {
    for (const Field& f : mFields)
        if (f.input == input) return f.edit;
    return nullptr;
}

Result<std::vector<InputShapeRange>> ExportShapesDialog::shapes() const {
    std::vector<InputShapeRange> given;
    for (const Field& f : mFields) {
        const QString text = f.edit->text().trimmed();
        if (text.isEmpty() || text == f.prefilled) continue;
        QL_ASSIGN_OR_RETURN(auto range, parseShapeOption(f.input.toStdString() + "=" + text.toStdString(), "shapes"));
        given.push_back(std::move(range));
    }
    // Checked against the declared shapes as `quantize --shapes` is.
    QL_RETURN_IF_ERROR(trtexecShapes(mGraph, {}, given, "shapes").status());
    return given;
}

QString ExportShapesDialog::errorText() const {
    return mError->isHidden() ? QString() : mError->text();
}

void ExportShapesDialog::accept() {
    auto given = shapes();
    if (!given) {
        mError->setText(QString::fromStdString(given.status().message()));
        mError->show();
        return;
    }
    QDialog::accept();
}

}  // namespace ql::ui
