#include "ui/help/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ql::ui {

namespace {

QString plainText(const QAction* action) {
    const QString name = action->property(kShortcutNameProperty).toString();
    return name.isEmpty() ? QString(action->text()).remove(QLatin1Char('&')) : name;
}

QString keysText(const QAction* action) {
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts()) keys.append(key.toString(QKeySequence::NativeText));
    return keys.join(QStringLiteral(", "));
}

void collectMenu(const QMenu* menu, QList<QAction*>& actions) {
    for (QAction* action : menu->actions()) {
        if (const QMenu* submenu = action->menu())
            collectMenu(submenu, actions);
        else if (!action->shortcuts().isEmpty())
            actions.append(action);
    }
}

}  // namespace

QList<ShortcutGroup> windowShortcuts(const QMenuBar* menuBar, const QList<ShortcutGroup>& others) {
    QList<ShortcutGroup> groups;
    for (QAction* entry : menuBar->actions()) {
        const QMenu* menu = entry->menu();
        if (!menu) continue;
        ShortcutGroup group{plainText(entry), {}};
        collectMenu(menu, group.actions);
        if (!group.actions.isEmpty()) groups.append(group);
    }
    return groups + others;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutGroup>& groups, QWidget* parent)
    : QDialog(parent), mTree(new QTreeWidget(this)) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    mTree->setHeaderLabels({tr("Command"), tr("Keys")});
    mTree->setRootIsDecorated(false);
    mTree->setAlternatingRowColors(true);
    for (const ShortcutGroup& group : groups) {
        auto* title = new QTreeWidgetItem(mTree, {group.title});
        QFont bold = title->font(0);
        bold.setBold(true);
        title->setFont(0, bold);
        title->setFirstColumnSpanned(true);
        for (const QAction* action : group.actions)
            if (!action->shortcuts().isEmpty()) new QTreeWidgetItem(title, {plainText(action), keysText(action)});
    }
    mTree->expandAll();
    mTree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* note = new QLabel(tr("The keys of the graph and of the precision table work while that view has the "
                               "keyboard focus: click it first."),
                            this);
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(mTree);
    layout->addWidget(buttons);
    resize(520, 560);
}

QString ShortcutsDialog::keysOf(const QString& group, const QString& command) const {
    for (int i = 0; i < mTree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* title = mTree->topLevelItem(i);
        if (title->text(0) != group) continue;
        for (int row = 0; row < title->childCount(); ++row)
            if (title->child(row)->text(0) == command) return title->child(row)->text(1);
    }
    return {};
}

}  // namespace ql::ui
