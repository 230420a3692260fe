#pragma once
// Sorting and filtering of the precision table: numbers sort as numbers (nodes without one after every
// number in ascending order), text naturally ("features.3" before "features.11", case-insensitive), a
// case-insensitive substring filter on the node name and op type, "only fallbacks" (nodes whose effective precision
// differs from the requested one), and, unless "all nodes" is on, only the nodes that have a precision to choose
// (no Constant, Q/DQ or shape nodes: hasPrecisionChoice).
#include <QSortFilterProxyModel>
#include <QStringView>

namespace ql::ui {

class PrecisionFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit PrecisionFilterModel(QObject* parent = nullptr);

    void setFilterText(const QString& text);
    QString filterText() const { return mFilterText; }
    void setOnlyFallbacks(bool only);
    bool onlyFallbacks() const { return mOnlyFallbacks; }
    void setShowAllNodes(bool all);
    bool showAllNodes() const { return mShowAllNodes; }

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString mFilterText;
    bool mOnlyFallbacks = false;
    bool mShowAllNodes = false;
};

// <0, 0 or >0 as `a` sorts before, with or after `b`: runs of digits compare as numbers ("features.3" before
// "features.11"), everything else by character, case-insensitively. Locale-free: QCollator's numeric mode does
// nothing in the C locale.
int naturalCompare(QStringView a, QStringView b);

}  // namespace ql::ui
