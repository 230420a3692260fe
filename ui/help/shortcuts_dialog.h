#pragma once
// Help > Keyboard Shortcuts: every command that has a key, grouped by where it works (the window's menus, the
// graph, the precision table). Built from the actions themselves when it opens, so it never lists a key that
// does something else.
//
//   auto* dialog = new ShortcutsDialog(windowShortcuts(menuBar(), {{tr("Graph"), graphView->keyActions()}}), this);
#include <QDialog>
#include <QList>
#include <QString>

class QAction;
class QMenuBar;
class QTreeWidget;

namespace ql::ui {

// An action whose text changes (Undo names the edit it undoes) names itself for the list with this property.
inline constexpr char kShortcutNameProperty[] = "shortcutName";

struct ShortcutGroup {
    QString title;
    QList<QAction*> actions;  // those without a shortcut are left out of the list
};

// One group per menu of `menuBar` (submenus folded into their menu), then `others`.
QList<ShortcutGroup> windowShortcuts(const QMenuBar* menuBar, const QList<ShortcutGroup>& others);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QList<ShortcutGroup>& groups, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return mTree; }
    // The keys listed for `command` (its text without '&') in `group`, e.g. "F, 0"; empty when not listed.
    QString keysOf(const QString& group, const QString& command) const;

private:
    QTreeWidget* mTree;
};

}  // namespace ql::ui
