#include "ui/action_shortcut_keeper.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeyEvent>

namespace ql::ui {

ActionShortcutKeeper::ActionShortcutKeeper(QAction* action) : QObject(action), mAction(action) {
    QCoreApplication::instance()->installEventFilter(this);
}

bool ActionShortcutKeeper::eventFilter(QObject* watched, QEvent* event) {
    // A widget that accepts ShortcutOverride takes the key; one that never sees it leaves it to the shortcut.
    if (event->type() != QEvent::ShortcutOverride || !mAction->isEnabled()) return QObject::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    const QKeySequence pressed(key->keyCombination());
    for (const QKeySequence& shortcut : mAction->shortcuts())
        if (shortcut.matches(pressed) == QKeySequence::ExactMatch) return true;
    return QObject::eventFilter(watched, event);
}

}  // namespace ql::ui
