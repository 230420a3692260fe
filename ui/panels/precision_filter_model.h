#pragma once
// Sorting and filtering of the precision table: numbers sort as numbers (nodes without one after every
// number in ascending order), a case-insensitive substring filter on the node name and op type, and "only fallbacks"
// (nodes whose effective precision differs from the requested one).
#include <QSortFilterProxyModel>

namespace ql::ui {

class PrecisionFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit PrecisionFilterModel(QObject* parent = nullptr);

    void setFilterText(const QString& text);
    QString filterText() const { return mFilterText; }
    void setOnlyFallbacks(bool only);
    bool onlyFallbacks() const { return mOnlyFallbacks; }

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString mFilterText;
    bool mOnlyFallbacks = false;
};

}  // namespace ql::ui
