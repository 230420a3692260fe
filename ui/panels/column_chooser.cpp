#include "ui/panels/column_chooser.h"

#include <QAction>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTableView>
#include <algorithm>

namespace ql::ui {

ColumnChooser::ColumnChooser(QTableView* view, const QString& settingsGroup, std::vector<ChoosableColumn> columns,
                             QObject* parent)
    : QObject(parent), mView(view), mGroup(settingsGroup), mColumns(std::move(columns)) {
    QHeaderView* header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, &ColumnChooser::showMenu);
    for (const ChoosableColumn& c : mColumns) apply(c.column);
}

const ChoosableColumn* ColumnChooser::find(int column) const {
    const auto it =
        std::find_if(mColumns.begin(), mColumns.end(), [column](const auto& c) { return c.column == column; });
    return it == mColumns.end() ? nullptr : &*it;
}

bool ColumnChooser::isChosen(int column) const {
    const ChoosableColumn* c = find(column);
    if (!c) return !mView->isColumnHidden(column);
    return QSettings().value(mGroup + QLatin1Char('/') + c->key, c->shownByDefault).toBool();
}

void ColumnChooser::setChosen(int column, bool chosen) {
    const ChoosableColumn* c = find(column);
    if (!c) return;
    QSettings().setValue(mGroup + QLatin1Char('/') + c->key, chosen);
    apply(column);
}

void ColumnChooser::setAvailable(int column, bool available) {
    if (available == isAvailable(column)) return;
    if (available)
        mUnavailable.removeAll(column);
    else
        mUnavailable.append(column);
    if (find(column))
        apply(column);
    else
        mView->setColumnHidden(column, !available);
}

bool ColumnChooser::isAvailable(int column) const {
    return !mUnavailable.contains(column);
}

void ColumnChooser::apply(int column) {
    const bool shown = isAvailable(column) && isChosen(column);
    const bool wasHidden = mView->isColumnHidden(column);
    mView->setColumnHidden(column, !shown);
    if (shown && wasHidden) emit columnShown(column);
}

QMenu* ColumnChooser::createMenu(QWidget* parent) {
    auto* menu = new QMenu(tr("Columns"), parent);
    menu->setToolTipsVisible(true);
    std::vector<ChoosableColumn> ordered = mColumns;
    const QHeaderView* header = mView->horizontalHeader();
    std::sort(ordered.begin(), ordered.end(), [header](const auto& a, const auto& b) {
        return header->visualIndex(a.column) < header->visualIndex(b.column);
    });
    for (const ChoosableColumn& c : ordered) {
        QAction* action = menu->addAction(c.label);
        action->setCheckable(true);
        action->setChecked(isChosen(c.column));
        action->setEnabled(isAvailable(c.column));
        action->setToolTip(mView->model()
                               ? mView->model()->headerData(c.column, Qt::Horizontal, Qt::ToolTipRole).toString()
                               : QString());
        const int column = c.column;
        connect(action, &QAction::toggled, this, [this, column](bool on) { setChosen(column, on); });
    }
    return menu;
}

void ColumnChooser::showMenu(const QPoint& pos) {
    QMenu* menu = createMenu(mView);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(mView->horizontalHeader()->viewport()->mapToGlobal(pos));
}

}  // namespace ql::ui
