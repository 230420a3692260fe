// The precision table at 1280x800 (issue 29, "a layout that fits"; item 8): the Node column stays in view while the
// others scroll and follows the vertical scroll; the header's column chooser hides and shows columns and remembers
// them; the Sensitivity column is named for what it is; the MACs header says when open dimensions counted as 1.
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/main_window.h"
#include "ui/panels/column_chooser.h"
#include "ui/panels/frozen_column_table.h"
#include "ui/panels/precision_filter_model.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"

using namespace ql;
using namespace ql::ui;

class FrozenColumnTableTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void nodeColumnStaysInViewAndFollowsTheRows();
    void clickOnTheFrozenColumnSelectsTheRow();
    void columnChooserHidesShowsAndRemembers();
    void headersSayWhatTheNumbersAre();
};

namespace {

struct Fixture {
    MainWindow window;
    PrecisionPanel* panel = nullptr;
    FrozenColumnTableView* table = nullptr;
    bool open(const QString& path = test::sampleModelPath()) {
        window.resize(1280, 800);
        window.show();
        if (!test::openAndWaitForLayout(window, path)) return false;
        panel = window.findChild<PrecisionPanel*>();
        table = qobject_cast<FrozenColumnTableView*>(panel->view());
        return table != nullptr;
    }
};

// `node` names at the frozen column's left edge: the row the overlay shows there.
QString frozenNameAt(const FrozenColumnTableView* table, int y) {
    QTableView* frozen = table->frozenView();
    return frozen->indexAt(QPoint(4, y)).data().toString();
}

}  // namespace

void FrozenColumnTableTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("frozen_column_table_test"));
    QSettings().clear();
}

void FrozenColumnTableTest::nodeColumnStaysInViewAndFollowsTheRows() {
    Fixture f;
    QVERIFY(f.open());
    f.table->resize(360, 150);  // narrow and short: both scroll bars
    f.panel->filterModel()->setShowAllNodes(true);
    QTest::qWait(20);
    QTableView* frozen = f.table->frozenView();
    QVERIFY(frozen->isVisible());
    QCOMPARE(frozen->columnWidth(PrecisionTableModel::NodeColumn),
             f.table->columnWidth(PrecisionTableModel::NodeColumn));
    for (int column = 1; column < PrecisionTableModel::ColumnCount; ++column) QVERIFY(frozen->isColumnHidden(column));

    // Scrolled to the far right, the main view's Node cells are off screen; the overlay still names the rows.
    QScrollBar* horizontal = f.table->horizontalScrollBar();
    QVERIFY(horizontal->maximum() > 0);
    horizontal->setValue(horizontal->maximum());
    QTest::qWait(20);
    QVERIFY(f.table->columnViewportPosition(PrecisionTableModel::NodeColumn) < 0);
    QCOMPARE(frozen->geometry().left(), f.table->frameWidth());
    const int rowY = f.table->rowViewportPosition(0) + 4;
    QCOMPARE(frozenNameAt(f.table, rowY), f.table->model()->index(0, 0).data().toString());

    // Scrolled down, the overlay shows the same rows as the table.
    QScrollBar* vertical = f.table->verticalScrollBar();
    QVERIFY(vertical->maximum() > 2);
    vertical->setValue(3);
    QTest::qWait(20);
    QCOMPARE(frozen->verticalScrollBar()->value(), 3);
    const int topRow = f.table->rowAt(4);
    QVERIFY(topRow >= 3);
    QCOMPARE(frozenNameAt(f.table, 4), f.table->model()->index(topRow, 0).data().toString());
    // And the other way round: the wheel over the overlay scrolls the table.
    frozen->verticalScrollBar()->setValue(1);
    QCOMPARE(vertical->value(), 1);

    // Selecting a node from the graph scrolls vertically only: the columns the user scrolled to stay.
    horizontal->setValue(horizontal->maximum());
    f.panel->selectNode(
        f.table->model()->index(f.table->model()->rowCount() - 1, 0).data(PrecisionTableModel::NodeIdRole).toInt());
    QCOMPARE(horizontal->value(), horizontal->maximum());
    QVERIFY(vertical->value() > 1);
}

void FrozenColumnTableTest::clickOnTheFrozenColumnSelectsTheRow() {
    Fixture f;
    QVERIFY(f.open());
    QTableView* frozen = f.table->frozenView();
    const QModelIndex third = f.table->model()->index(2, PrecisionTableModel::NodeColumn);
    QTest::mouseClick(frozen->viewport(), Qt::LeftButton, {}, frozen->visualRect(third).center());
    QCOMPARE(f.panel->currentNode(), third.data(PrecisionTableModel::NodeIdRole).toInt());
    QCOMPARE(f.panel->selectedNodes().size(), 1);  // the whole row, as a click in the table selects it
    QVERIFY(f.table->hasFocus() || !f.window.isActiveWindow());
}

void FrozenColumnTableTest::columnChooserHidesShowsAndRemembers() {
    QSettings().clear();
    {
        Fixture f;
        QVERIFY(f.open());
        ColumnChooser* chooser = f.panel->columnChooser();
        QVERIFY(!f.table->isColumnHidden(PrecisionTableModel::MacsColumn));
        std::unique_ptr<QMenu> menu(chooser->createMenu(nullptr));
        QAction* macs = nullptr;
        QStringList labels;
        for (QAction* action : menu->actions()) {
            labels << action->text();
            if (action->text() == PrecisionTableModel::columnTitle(PrecisionTableModel::MacsColumn)) macs = action;
        }
        QVERIFY(!labels.contains(QStringLiteral("Node")));  // the frozen column is always shown
        QVERIFY(labels.contains(QStringLiteral("Isolated SQNR")));
        QVERIFY(macs && macs->isCheckable() && macs->isChecked());
        macs->trigger();
        QVERIFY(f.table->isColumnHidden(PrecisionTableModel::MacsColumn));
        // Before an engine report the engine's columns are hidden and their entries disabled.
        for (QAction* action : menu->actions())
            if (action->text() == QStringLiteral("Engine")) QVERIFY(!action->isEnabled());
        QVERIFY(f.table->isColumnHidden(PrecisionTableModel::EngineColumn));
        chooser->setChosen(PrecisionTableModel::TuneColumn, false);
        chooser->setChosen(PrecisionTableModel::TuneColumn, true);
        QVERIFY(!f.table->isColumnHidden(PrecisionTableModel::TuneColumn));
    }
    Fixture again;  // the next window
    QVERIFY(again.open());
    QVERIFY(again.table->isColumnHidden(PrecisionTableModel::MacsColumn));
    QVERIFY(!again.table->isColumnHidden(PrecisionTableModel::TuneColumn));
    again.panel->columnChooser()->setChosen(PrecisionTableModel::MacsColumn, true);
    QVERIFY(!again.table->isColumnHidden(PrecisionTableModel::MacsColumn));
    QSettings().clear();
}

void FrozenColumnTableTest::headersSayWhatTheNumbersAre() {
    Fixture f;
    QVERIFY(f.open());
    const QAbstractItemModel* model = f.table->model();
    auto header = [model](int column, int role = Qt::DisplayRole) {
        return model->headerData(column, Qt::Horizontal, role).toString();
    };
    QCOMPARE(header(PrecisionTableModel::SensitivityColumn), QStringLiteral("Isolated SQNR"));
    QVERIFY(
        header(PrecisionTableModel::SensitivityColumn, Qt::ToolTipRole).contains(QStringLiteral("Higher is better")));
    // The sample's batch is open ([batch,1,16,16]): its MAC counts took it as 1, and the header says so.
    QCOMPARE(header(PrecisionTableModel::MacsColumn), QStringLiteral("MACs (open dims = 1)"));
    QVERIFY(header(PrecisionTableModel::MacsColumn, Qt::ToolTipRole).contains(QStringLiteral("[batch,1,16,16]")));

    // A model with every dimension fixed has plain MACs.
    test::TempDir dir;
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, std::vector<float>(4 * 3 * 9, 0.1f));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    const std::string path = dir.file("fixed.onnx");
    b.save(path);
    Fixture fixed;
    QVERIFY(fixed.open(QString::fromStdString(path)));
    QCOMPARE(fixed.table->model()->headerData(PrecisionTableModel::MacsColumn, Qt::Horizontal).toString(),
             QStringLiteral("MACs"));
}

QTEST_MAIN(FrozenColumnTableTest)
#include "frozen_column_table_test.moc"
