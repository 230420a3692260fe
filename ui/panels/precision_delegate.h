#pragma once
// Edits a precision cell with a combo box (FP32, FP16, INT8); the model receives the Precision as an int.
#include <QStyledItemDelegate>

namespace ql::ui {

class PrecisionDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

}  // namespace ql::ui
