#include "ui/panels/frozen_column_table.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QSignalBlocker>

namespace ql::ui {

FrozenColumnTableView::FrozenColumnTableView(QWidget* parent) : QTableView(parent), mFrozen(new QTableView(this)) {
    mFrozen->setObjectName(QStringLiteral("FrozenColumn"));
    mFrozen->setFocusProxy(this);  // a click in the overlay gives this view the keyboard
    mFrozen->verticalHeader()->hide();
    mFrozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mFrozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mFrozen->setFrameShape(QFrame::NoFrame);
    mFrozen->setEditTriggers(NoEditTriggers);
    mFrozen->horizontalHeader()->setSectionsClickable(true);
    mFrozen->horizontalHeader()->setSortIndicatorShown(true);
    mFrozen->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    // Pixels, not columns: scrolling by whole columns put column 1 under the overlay, unreachable.
    setHorizontalScrollMode(ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        if (column != 0) return;
        mFrozen->setColumnWidth(0, size);
        placeFrozenView();
    });
    // The overlay covers this view's header of column 0, so its own header resizes the column.
    connect(mFrozen->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        if (column == 0) setColumnWidth(0, size);
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int row, int, int size) { mFrozen->setRowHeight(row, size); });
    connect(mFrozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, mFrozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // One sort indicator for both: a click on the overlay's header sorts this view (once), and this view's sort
    // shows on the overlay's header.
    connect(mFrozen->horizontalHeader(), &QHeaderView::sortIndicatorChanged, horizontalHeader(),
            &QHeaderView::setSortIndicator);
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int column, Qt::SortOrder order) {
        const QSignalBlocker blocker(mFrozen->horizontalHeader());
        mFrozen->horizontalHeader()->setSortIndicator(column, order);
        mFrozen->horizontalHeader()->viewport()->update();
    });
    // The overlay's context menus are this view's (the rows' commands, and the header's column chooser).
    mFrozen->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mFrozen, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        if (contextMenuPolicy() != Qt::CustomContextMenu) return;
        emit customContextMenuRequested(viewport()->mapFromGlobal(mFrozen->viewport()->mapToGlobal(pos)));
    });
    mFrozen->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mFrozen->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        if (horizontalHeader()->contextMenuPolicy() != Qt::CustomContextMenu) return;
        emit horizontalHeader()->customContextMenuRequested(
            horizontalHeader()->viewport()->mapFromGlobal(mFrozen->horizontalHeader()->viewport()->mapToGlobal(pos)));
    });
    viewport()->stackUnder(mFrozen);
}

void FrozenColumnTableView::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    QItemSelectionModel* own = mFrozen->selectionModel();
    mFrozen->setModel(model);
    QItemSelectionModel* created = mFrozen->selectionModel();
    mFrozen->setSelectionModel(selectionModel());
    if (created != own) delete created;
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::showOnlyFrozenColumn);
        connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTableView::showOnlyFrozenColumn);
    }
    showOnlyFrozenColumn();
}

void FrozenColumnTableView::showOnlyFrozenColumn() {
    if (!model()) return;
    for (int column = 0; column < model()->columnCount(); ++column) mFrozen->setColumnHidden(column, column != 0);
    mFrozen->setColumnWidth(0, columnWidth(0));
    placeFrozenView();
}

void FrozenColumnTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    placeFrozenView();
}

void FrozenColumnTableView::updateGeometries() {
    QTableView::updateGeometries();
    placeFrozenView();
}

// Also takes over the settings the owner gives this view after construction (selection, row height, look), which
// the overlay must share for a click on it to select what a click here would.
void FrozenColumnTableView::placeFrozenView() {
    mFrozen->setSelectionBehavior(selectionBehavior());
    mFrozen->setSelectionMode(selectionMode());
    mFrozen->setAlternatingRowColors(alternatingRowColors());
    mFrozen->setWordWrap(wordWrap());
    mFrozen->setShowGrid(showGrid());
    mFrozen->setVerticalScrollMode(verticalScrollMode());
    mFrozen->horizontalHeader()->setSortIndicatorClearable(horizontalHeader()->isSortIndicatorClearable());
    if (mFrozen->verticalHeader()->defaultSectionSize() != verticalHeader()->defaultSectionSize())
        mFrozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    mFrozen->horizontalHeader()->setFixedHeight(horizontalHeader()->isHidden() ? 0 : horizontalHeader()->height());
    mFrozen->setVisible(model() && !isColumnHidden(0));
    const int header = horizontalHeader()->isHidden() ? 0 : horizontalHeader()->height();
    mFrozen->setGeometry(frameWidth() + (verticalHeader()->isHidden() ? 0 : verticalHeader()->width()), frameWidth(),
                         columnWidth(0), viewport()->height() + header);
    mFrozen->verticalScrollBar()->setValue(verticalScrollBar()->value());
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) {
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    const int hiddenBy = !mFrozen->isHidden() ? columnWidth(0) : 0;
    if (cursorAction == MoveLeft && current.column() > 0 && visualRect(current).left() < hiddenBy)
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + visualRect(current).left() - hiddenBy);
    return current;
}

// Column 0 is always in view: scrolling to one of its cells moves only vertically (scrolling the table back to
// its left edge on every selection from the graph lost the columns the user had scrolled to). Another column's
// cell is scrolled clear of the overlay.
void FrozenColumnTableView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    const int x = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    if (!index.isValid() || mFrozen->isHidden()) return;
    if (index.column() == 0) {
        horizontalScrollBar()->setValue(x);
        return;
    }
    const int left = visualRect(index).left();
    if (left < columnWidth(0)) horizontalScrollBar()->setValue(horizontalScrollBar()->value() + left - columnWidth(0));
}

}  // namespace ql::ui
