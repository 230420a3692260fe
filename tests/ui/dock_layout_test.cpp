// The window's docks at 1280x800 (issue 29, "a layout that fits"): selecting rows of the precision table leaves
// every dock where it was, and the plots get a readable share of the window.
#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>
#include <map>

#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"

using namespace ql;

class DockLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void docksStayWhereTheyAreWhenRowsAreSelected();
    void plotsAreReadableAt1280x800();
    void docksStayWhereTheyAreWhenResultsGoStale();
};

namespace {

std::map<QString, QRect> dockGeometries(const ui::MainWindow& window) {
    std::map<QString, QRect> geometries;
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible()) geometries[dock->objectName()] = dock->geometry();
    return geometries;
}

// The sample open and calibrated (with the error analysis) in a window of 1280x800, as a first run shows it.
struct CalibratedWindow {
    ui::MainWindow window;
    bool open() {
        window.resize(1280, 800);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window) || !test::openAndWaitForLayout(window, test::sampleModelPath()))
            return false;
        test::calibrateSampleNow(*window.document());
        QTest::qWait(50);
        return window.document()->calibration() != nullptr;
    }
};

}  // namespace

void DockLayoutTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("dock_layout_test"));
    QSettings().clear();  // the first-run arrangement
}

// A click on a row showed the node's properties, histogram and tensor in the docks, and a dock whose contents asked
// for another size made the window move the splitters between the docks.
void DockLayoutTest::docksStayWhereTheyAreWhenRowsAreSelected() {
    CalibratedWindow w;
    QVERIFY(w.open());
    auto* table = w.window.findChild<ui::PrecisionPanel*>()->view();
    const std::map<QString, QRect> before = dockGeometries(w.window);
    QVERIFY(before.count(QStringLiteral("PrecisionDock")) && before.count(QStringLiteral("NodePropertiesDock")));
    const int rows = table->model()->rowCount();
    QVERIFY(rows > 5);
    for (int row : {0, 1, 2, 3, 4, 5, 6, 7, 8, rows / 2, rows - 1, 1}) {
        const QModelIndex index = table->model()->index(row, ui::PrecisionTableModel::OpColumn);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        QCOMPARE(table->currentIndex().row(), row);
        QTest::qWait(30);
        const std::map<QString, QRect> after = dockGeometries(w.window);
        for (const auto& [name, geometry] : before) QVERIFY2(after.at(name) == geometry, qPrintable(name));
    }
}

// The plots share one tabbed dock a third of the window wide, instead of three side by side at a quarter each
// (the layer error plot got 286x244 pixels, its controls cut off).
void DockLayoutTest::plotsAreReadableAt1280x800() {
    CalibratedWindow w;
    QVERIFY(w.open());
    int shown = 0;
    for (const char* name : {"HistogramDock", "LayerErrorDock", "OutputScatterDock"}) {
        auto* dock = w.window.findChild<QDockWidget*>(QLatin1String(name));
        QVERIFY(dock);
        if (dock->visibleRegion().isEmpty()) continue;  // a tab behind another
        ++shown;
        QVERIFY2(dock->widget()->width() >= 440 && dock->widget()->height() >= 220,
                 qPrintable(QStringLiteral("%1: %2x%3").arg(name).arg(dock->width()).arg(dock->height())));
    }
    QCOMPARE(shown, 1);
    // The table beside them still shows the columns that decide a precision, up to the tune's remedy.
    QTableView* table = w.window.findChild<ui::PrecisionPanel*>()->view();
    const int tune = table->columnViewportPosition(ui::PrecisionTableModel::TuneColumn);
    QVERIFY2(tune >= 0 && tune + 40 <= table->viewport()->width(), qPrintable(QString::number(tune)));
}

// A precision change marks the plots stale with a banner above them; the banner made their dock taller, every dock
// moved, and at 1280x800 the window grew past the bottom of the screen (a walk on Silero VAD).
void DockLayoutTest::docksStayWhereTheyAreWhenResultsGoStale() {
    CalibratedWindow w;
    QVERIFY(w.open());
    const QSize size = w.window.size();
    for (const char* shown : {"LayerErrorDock", "HistogramDock"}) {
        w.window.findChild<QDockWidget*>(QLatin1String(shown))->raise();
        QTest::qWait(30);
        const std::map<QString, QRect> before = dockGeometries(w.window);
        const ui::ModelDocument& document = *w.window.document();
        const NodeId conv = [&] {
            for (const Node& node : document.model()->graph().nodes())
                if (node.opType == "Conv") return node.id;
            return kNoId;
        }();
        const Precision was = document.plan().requested(conv);
        w.window.document()->setRequestedPrecision({conv}, was == Precision::Fp16 ? Precision::Int8 : Precision::Fp16);
        QTest::qWait(50);
        QVERIFY(document.isAnalysisStale());
        const std::map<QString, QRect> after = dockGeometries(w.window);
        for (const auto& [name, geometry] : before)
            QVERIFY2(after.at(name) == geometry,
                     qPrintable(QStringLiteral("%1 (%2 raised): %3,%4 %5x%6 -> %7,%8 %9x%10")
                                    .arg(name, QLatin1String(shown))
                                    .arg(geometry.x())
                                    .arg(geometry.y())
                                    .arg(geometry.width())
                                    .arg(geometry.height())
                                    .arg(after.at(name).x())
                                    .arg(after.at(name).y())
                                    .arg(after.at(name).width())
                                    .arg(after.at(name).height())));
        QCOMPARE(w.window.size(), size);
        w.window.document()->undoStack()->undo();
        QTest::qWait(50);
    }
}

QTEST_MAIN(DockLayoutTest)
#include "dock_layout_test.moc"
