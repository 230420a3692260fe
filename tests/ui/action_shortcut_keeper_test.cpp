// A text field that claims an action's shortcut as an editing key (a QLineEdit on X11 takes Ctrl+E as "end of
// line") leaves it to the action while the action is enabled, and keeps it while the action is disabled; the
// window's Export for TensorRT (Ctrl+E) is kept so.
#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QtTest>

#include "ui/action_shortcut_keeper.h"
#include "ui/main_window.h"

using namespace ql;

class ActionShortcutKeeperTest : public QObject {
    Q_OBJECT
private slots:
    void anEnabledActionKeepsItsShortcutFromATextField();
    void theWindowKeepsCtrlEForTheExport();
};

namespace {

// A field that claims every key as an editing key, as X11's key bindings make QLineEdit claim Ctrl+E.
class ClaimingField : public QLineEdit {
public:
    bool event(QEvent* event) override {
        if (event->type() == QEvent::ShortcutOverride) {
            event->accept();
            return true;
        }
        return QLineEdit::event(event);
    }
};

// Whether `field` takes Ctrl+E from the shortcut (as the shortcut map asks it, with the event ignored first).
bool fieldTakesCtrlE(QWidget* field) {
    QKeyEvent override(QEvent::ShortcutOverride, Qt::Key_E, Qt::ControlModifier);
    override.ignore();
    QApplication::sendEvent(field, &override);
    return override.isAccepted();
}

}  // namespace

void ActionShortcutKeeperTest::anEnabledActionKeepsItsShortcutFromATextField() {
    ClaimingField field;
    QVERIFY(fieldTakesCtrlE(&field));  // nothing keeps it yet
    QAction action;
    action.setShortcut(Qt::CTRL | Qt::Key_E);
    new ui::ActionShortcutKeeper(&action);
    QVERIFY(!fieldTakesCtrlE(&field));  // the action's
    action.setEnabled(false);
    QVERIFY(fieldTakesCtrlE(&field));  // disabled: the field's again
}

void ActionShortcutKeeperTest::theWindowKeepsCtrlEForTheExport() {
    ui::MainWindow window;
    const auto keepers = window.findChildren<ui::ActionShortcutKeeper*>();
    QCOMPARE(keepers.size(), 1);
    auto* action = qobject_cast<QAction*>(keepers.first()->parent());
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
}

QTEST_MAIN(ActionShortcutKeeperTest)
#include "action_shortcut_keeper_test.moc"
