// The window's tune report when the tune moved layers inside If/Loop bodies (tests/support/body_tune_fixture.h): the
// steps and the summary name them by path, and the precision table's remedies (by node of the main graph) take no
// body layer for a main-graph node of the same id.
#include <QtTest>
#include <set>

#include "tests/support/body_tune_fixture.h"
#include "tests/support/control_flow_model.h"
#include "ui/tuning/tune_report_text.h"

using namespace ql;

class TuneBodiesTest : public QObject {
    Q_OBJECT
private slots:
    void stepsAndSummaryNameBodyLayersByPath();
    void remediesAreOnlyTheMainGraphsLayers();
};

void TuneBodiesTest::stepsAndSummaryNameBodyLayersByPath() {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const auto report = test::tuneBodies(graph, "output-sqnr>=45");
    QVERIFY2(report.isOk(), report.status().message().c_str());
    const std::vector<ui::TuneStepRow> rows = ui::describeSteps(*report);
    QVERIFY(rows.size() >= 2);
    QCOMPARE(rows[1].action, TuneStep::Action::Fallback);
    QCOMPARE(rows[1].layer, QStringLiteral("refine/body/l1"));
    const QString summary = ui::tuneSummaryText(graph, *report);
    QVERIFY2(summary.contains(QStringLiteral("refine/body/l1 (fp16)")), qPrintable(summary));
    // Counted with the main graph's: "N of M layers kept out of INT8".
    const qsizetype kept = static_cast<qsizetype>(report->keptOut.size() + report->keptOutInBodies.size());
    QVERIFY2(summary.contains(QStringLiteral("%1 of %2 layers kept out").arg(kept).arg(report->startUnits)),
             qPrintable(summary));
}

void TuneBodiesTest::remediesAreOnlyTheMainGraphsLayers() {
    const auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    const auto report = test::tuneBodies(graph, "output-sqnr>=45");
    QVERIFY2(report.isOk(), report.status().message().c_str());
    std::set<NodeId> mainNodes;
    for (const TuneUnit& unit : report->units)
        if (unit.body.empty()) mainNodes.insert(unit.nodes.begin(), unit.nodes.end());
    const auto remedies = ui::layerRemedies(graph, *report);
    QVERIFY(!remedies.empty());
    for (const auto& [node, remedy] : remedies)
        QVERIFY2(mainNodes.count(node), qPrintable(QString::fromStdString(graph.node(node).name) + ": " + remedy.text));
}

QTEST_MAIN(TuneBodiesTest)
#include "tune_bodies_test.moc"
