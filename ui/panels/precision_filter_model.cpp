#include "ui/panels/precision_filter_model.h"

#include <cmath>

#include "ui/panels/precision_table_model.h"

namespace ql::ui {

namespace {

// The run of digits at `at`, without leading zeros (so "007" and "7" are the same number); `at` moves past it.
QStringView digitRun(QStringView text, qsizetype& at) {
    const qsizetype start = at;
    while (at < text.size() && text[at].isDigit()) ++at;
    QStringView run = text.sliced(start, at - start);
    while (run.size() > 1 && run.front() == u'0') run = run.sliced(1);
    return run;
}

}  // namespace

int naturalCompare(QStringView a, QStringView b) {
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const QStringView x = digitRun(a, i), y = digitRun(b, j);
            if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;  // fewer digits: a smaller number
            if (const int order = x.compare(y); order != 0) return order;
            continue;
        }
        const char32_t x = a[i].toCaseFolded().unicode(), y = b[j].toCaseFolded().unicode();
        if (x != y) return x < y ? -1 : 1;
        ++i;
        ++j;
    }
    return static_cast<int>((a.size() - i) - (b.size() - j));
}

PrecisionFilterModel::PrecisionFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(PrecisionTableModel::SortRole);
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

void PrecisionFilterModel::setShowAllNodes(bool all) {
    if (all == mShowAllNodes) return;
    mShowAllNodes = all;
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
    const int order = naturalCompare(a.toString(), b.toString());
    return order != 0 ? order < 0 : left.row() < right.row();
}

bool PrecisionFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    const QModelIndex row = model->index(sourceRow, 0, sourceParent);
    if (!mShowAllNodes && !row.data(PrecisionTableModel::PrecisionChoiceRole).toBool()) return false;
    if (mOnlyFallbacks && !row.data(PrecisionTableModel::FallbackRole).toBool()) return false;
    if (mFilterText.isEmpty()) return true;
    const QString name = model->index(sourceRow, PrecisionTableModel::NodeColumn, sourceParent).data().toString();
    const QString op = model->index(sourceRow, PrecisionTableModel::OpColumn, sourceParent).data().toString();
    return name.contains(mFilterText, Qt::CaseInsensitive) || op.contains(mFilterText, Qt::CaseInsensitive);
}

}  // namespace ql::ui
