// The graph legend out of the way (issue 29, "a layout that fits"): in its own strip under the graph (never over a
// box) at 1280x800, collapsible to a small toggle by a click, and remembered collapsed for the next window.
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include "ui/graph/graph_legend.h"
#include "ui/graph/graph_minimap.h"
#include "ui/graph/graph_view.h"

using namespace ql;
using namespace ql::ui;

class GraphLegendTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void collapsesToAToggleAndIsRemembered();
};

void GraphLegendTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("graph_legend_test"));
    QSettings().clear();
}

void GraphLegendTest::collapsesToAToggleAndIsRemembered() {
    QSettings().clear();
    int expandedHeight = 0;
    {
        GraphView view;
        view.resize(870, 390);  // the graph's share of a 1280x800 window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // The strip under the viewport is as tall as the taller of the legend and the overview: with the overview
        // closed, the legend's rows are what it gives back.
        view.minimap()->setExpanded(false);
        GraphLegend* legend = view.legend();
        QVERIFY(!legend->isCollapsed());
        QVERIFY(legend->rowCount() >= 2);  // every entry at this width takes two rows
        // Under the viewport, not over it: no box is ever behind the legend.
        QVERIFY(!legend->geometry().intersects(view.viewport()->geometry()));
        expandedHeight = legend->height();
        const int viewportHeight = view.viewport()->height();

        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->toggleRect().center());
        QVERIFY(legend->isCollapsed());
        QVERIFY(legend->height() < expandedHeight);
        QVERIFY(legend->width() < 120);                                                           // the toggle alone
        QCOMPARE(view.viewport()->height(), viewportHeight + expandedHeight - legend->height());  // rows back
        QVERIFY(!legend->geometry().intersects(view.viewport()->geometry()));
        QVERIFY(!legend->labels().isEmpty());  // still knows its entries
        // A click beside the toggle does nothing.
        QTest::mouseClick(legend, Qt::LeftButton, {}, QPoint(legend->width() - 1, legend->height() - 1));
        QVERIFY(legend->isCollapsed());
    }
    {
        GraphView view;  // the next window
        view.resize(870, 390);
        view.show();
        GraphLegend* legend = view.legend();
        QVERIFY(legend->isCollapsed());
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->toggleRect().center());
        QVERIFY(!legend->isCollapsed());
        QCOMPARE(legend->height(), expandedHeight);
    }
    QVERIFY(!QSettings().value(QStringLiteral("graph/legendCollapsed")).toBool());
}

QTEST_MAIN(GraphLegendTest)
#include "graph_legend_test.moc"
