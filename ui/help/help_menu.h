#pragma once
// The window's Help menu: Keyboard Shortcuts (F1; the window's menus plus `viewShortcuts`, read from the actions
// when it opens), TensorRT Lint Rules (the rule registry) and About QuantLens (the version). The dialogs do not
// block: each opens beside the window and deletes itself on close.
//
//   addHelpMenu(window, {{tr("Graph"), graphView->keyActions()}});
#include <QList>
#include <QString>

#include "ui/help/shortcuts_dialog.h"

class QMainWindow;
class QMenu;

namespace ql::ui {

QMenu* addHelpMenu(QMainWindow* window, const QList<ShortcutGroup>& viewShortcuts);
// What About QuantLens says: the version, what the program is for, and its libraries.
QString aboutText();

}  // namespace ql::ui
