#include "ui/panels/precision_delegate.h"

#include <QComboBox>

#include "ui/graph/node_style.h"

namespace ql::ui {

QWidget* PrecisionDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const {
    auto* combo = new QComboBox(parent);
    for (Precision p : {Precision::Fp32, Precision::Fp16, Precision::Int8})
        combo->addItem(precisionLabel(p), static_cast<int>(p));
    // Commit as soon as the user picks, not only when the editor loses focus.
    auto* self = const_cast<PrecisionDelegate*>(this);  // createEditor is const; the signals are not
    connect(combo, &QComboBox::activated, self, [self, combo] {
        emit self->commitData(combo);
        emit self->closeEditor(combo);
    });
    return combo;
}

void PrecisionDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    auto* combo = static_cast<QComboBox*>(editor);
    const int at = combo->findData(index.data(Qt::EditRole).toInt());
    if (at >= 0) combo->setCurrentIndex(at);
}

void PrecisionDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const {
    const auto* combo = static_cast<QComboBox*>(editor);
    model->setData(index, combo->currentData(), Qt::EditRole);
}

}  // namespace ql::ui
