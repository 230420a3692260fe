#pragma once
// A table view whose first column (logical column 0, a row's name) stays in place while the other columns scroll
// horizontally, so a row can be told at any scroll position. Qt's frozen-column pattern: a second view over the
// left edge of this one, sharing its model and selection model and showing only column 0, its vertical scroll,
// row heights, column width and sort indicator kept in step with this view's. The overlay takes no focus of its
// own (keyboard commands and shortcuts stay with this view), and its context menu is this view's.
#include <QTableView>

namespace ql::ui {

class FrozenColumnTableView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;
    // The overlay that shows column 0.
    QTableView* frozenView() const { return mFrozen; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void updateGeometries() override;
    // Keeps the current cell out from under the overlay when the keyboard moves it left.
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

private:
    void showOnlyFrozenColumn();
    void placeFrozenView();

    QTableView* mFrozen;
};

}  // namespace ql::ui
