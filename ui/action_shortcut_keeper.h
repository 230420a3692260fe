#pragma once
// Keeps an action's shortcut working while a text field has the focus. Text fields claim some keys as editing keys
// (on X11 a QLineEdit takes Ctrl+E as "end of line"), so File > Export for TensorRT's Ctrl+E did nothing from the
// search bar or the precision filter. While the action is enabled its shortcut wins; disabled, the field keeps the key.
#include <QObject>

class QAction;

namespace ql::ui {

class ActionShortcutKeeper : public QObject {
    Q_OBJECT
public:
    // Watches the application's events from now on; `action` must outlive this (make it its child, or a sibling).
    explicit ActionShortcutKeeper(QAction* action);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAction* mAction;
};

}  // namespace ql::ui
