#include "ui/panels/precision_filter_model.h"

#include <cmath>

#include "ui/panels/precision_table_model.h"

namespace ql::ui {

PrecisionFilterModel::PrecisionFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(PrecisionTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void PrecisionFilterModel::setFilterText(const QString& text) {
    if (text == mFilterText) return;
    mFilterText = text;
    invalidateRowsFilter();
}

void PrecisionFilterModel::setOnlyFallbacks(bool only) {
    if (only == mOnlyFallbacks) return;
    mOnlyFallbacks = only;
    invalidateRowsFilter();
}

bool PrecisionFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::Double || a.typeId() == QMetaType::Int) {
        const double x = a.toDouble(), y = b.toDouble();
        // Missing numbers (NaN) go last in ascending order; ties keep graph order.
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
        if (x != y) return x < y;
        return left.row() < right.row();
    }
    const int order = QString::compare(a.toString(), b.toString(), sortCaseSensitivity());
    return order != 0 ? order < 0 : left.row() < right.row();
}

bool PrecisionFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    if (mOnlyFallbacks && !model->index(sourceRow, 0, sourceParent).data(PrecisionTableModel::FallbackRole).toBool())
        return false;
    if (mFilterText.isEmpty()) return true;
    const QString name = model->index(sourceRow, PrecisionTableModel::NodeColumn, sourceParent).data().toString();
    const QString op = model->index(sourceRow, PrecisionTableModel::OpColumn, sourceParent).data().toString();
    return name.contains(mFilterText, Qt::CaseInsensitive) || op.contains(mFilterText, Qt::CaseInsensitive);
}

}  // namespace ql::ui
