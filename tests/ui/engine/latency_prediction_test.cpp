// The latency prediction in the window (issue 28, item 4): without a GPU the Predicted column says to choose one
// and nothing is predicted; with the T4 chosen the Predicted ms and INT8 gain columns fill (a fused Relu points to
// its conv), a plan edit, a target change or a GPU change marks the numbers stale and recomputes them, the status bar
// gives the plan beside all-FP16 and all-INT8, and the graph overlay paints the INT8 island that pays green and the one
// that costs red. The model: tests/support/latency_island_model.h.
#include <QLabel>
#include <QTableView>
#include <QtTest>

#include "core/engine/plan_prediction.h"
#include "core/model/body_graphs.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/latency_island_model.h"
#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/gpu_choice_box.h"
#include "ui/engine/prediction_overlay.h"
#include "ui/graph/graph_legend.h"
#include "ui/graph/graph_node_item.h"
#include "ui/model_document.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/project_controller.h"

using namespace ql;
using namespace ql::ui;

class LatencyPredictionTest : public QObject {
    Q_OBJECT
private slots:
    void withoutAGpuTheColumnSaysToChooseOne();
    void withAGpuTheColumnsFill();
    void aPlanEditMarksThemStaleThenChangesThem();
    void theStatusBarComparesThePlanWithAllFp16AndAllInt8();
    void theOverlayPaintsAnIslandThatPaysGreenAndOneThatCostsRed();
    void aDynamicBatchIsSaidToCountAsOne();
    void theChosenGpuIsKeptInTheProject();
    void aFittedProfileIsOfferedAndQuotesItsError();
    void theLatencyRulesFindingsJoinTheWindowsFindings();
    void bodyLayersShowTheirPredictedTime();
};

namespace {

struct Fixture {
    test::TempDir dir;
    MainWindow window;
    ModelDocument* document = nullptr;
    PrecisionTableModel* table = nullptr;

    bool open(const test::ModelBuilder* builder = nullptr) {
        const std::string path = dir.path() + "/islands.onnx";
        if (builder) {
            builder->save(path);
        } else {
            test::ModelBuilder saved;
            saved.proto() = test::latencyIslandModel()->proto();
            saved.save(path);
        }
        window.show();
        if (!test::openAndWaitForLayout(window, QString::fromStdString(path))) return false;
        document = window.document();
        table = window.findChild<PrecisionPanel*>()->tableModel();
        if (!builder) document->replacePlan(test::islandsPlan(document->model()->graph()), QStringLiteral("islands"));
        return true;
    }
    bool chooseAndWait(const char* gpu) {
        if (!window.findChild<GpuChoiceBox*>()->chooseGpu(QString::fromLatin1(gpu))) return false;
        return waitForPrediction();
    }
    bool waitForPrediction() {
        return QTest::qWaitFor([&] { return document->latencyPrediction() && !document->isLatencyPredictionStale(); },
                               10000);
    }
    NodeId node(const char* name) const { return *document->model()->graph().findNode(name); }
    QString cell(const char* name, int column, int role = Qt::DisplayRole) const {
        return table->index(table->rowOf(node(name)), column).data(role).toString();
    }
    QString header(int column, int role = Qt::DisplayRole) const {
        return table->headerData(column, Qt::Horizontal, role).toString();
    }
    QString status() const { return window.findChild<QLabel*>(QStringLiteral("LatencyPredictionLabel"))->text(); }
};

}  // namespace

void LatencyPredictionTest::withoutAGpuTheColumnSaysToChooseOne() {
    Fixture f;
    QVERIFY(f.open());
    QVERIFY(!f.document->gpuProfile());
    QTest::qWait(50);  // a prediction would be under way by now
    QVERIFY(!f.document->latencyPrediction());
    QCOMPARE(f.header(PrecisionTableModel::PredictedColumn), QStringLiteral("Predicted ms: choose a GPU"));
    QVERIFY(f.header(PrecisionTableModel::PredictedColumn, Qt::ToolTipRole).contains(QStringLiteral("Choose a GPU")));
    QVERIFY(f.cell("small", PrecisionTableModel::PredictedColumn).isEmpty());
    QVERIFY(f.cell("small", PrecisionTableModel::GainColumn).isEmpty());
    auto* view = f.window.findChild<PrecisionPanel*>()->view();
    QVERIFY(view->isColumnHidden(PrecisionTableModel::GainColumn));
    QVERIFY(!view->isColumnHidden(PrecisionTableModel::PredictedColumn));
    QVERIFY(!f.window.findChild<QLabel*>(QStringLiteral("LatencyPredictionLabel"))->isVisible());
}

void LatencyPredictionTest::withAGpuTheColumnsFill() {
    Fixture f;
    QVERIFY(f.open());
    QVERIFY(f.chooseAndWait("t4"));
    QCOMPARE(QString::fromStdString(f.document->gpuProfile()->gpu.name), QStringLiteral("t4"));
    QCOMPARE(f.header(PrecisionTableModel::PredictedColumn), QStringLiteral("Predicted ms"));
    QVERIFY(f.header(PrecisionTableModel::GainColumn, Qt::ToolTipRole).contains(QStringLiteral("estimates")));
    bool ok = false;
    QVERIFY(f.cell("small", PrecisionTableModel::PredictedColumn).toDouble(&ok) > 0.0 && ok);
    // The fused Relu shows its layer's time once, on the conv, and says so.
    QCOMPARE(f.cell("small_relu", PrecisionTableModel::PredictedColumn), QStringLiteral("fused"));
    QVERIFY(f.cell("small_relu", PrecisionTableModel::PredictedColumn, Qt::ToolTipRole)
                .contains(QStringLiteral("Fused into small")));
    // INT8 costs in the small island, pays in the heavy one.
    QVERIFY(f.cell("small", PrecisionTableModel::GainColumn).startsWith(QChar(0x2212)));
    QVERIFY(f.cell("big", PrecisionTableModel::GainColumn).startsWith(QLatin1Char('+')));
    QVERIFY(f.cell("small", PrecisionTableModel::GainColumn, Qt::ToolTipRole).contains(QStringLiteral("INT8 costs")));
    QVERIFY(!f.window.findChild<PrecisionPanel*>()->view()->isColumnHidden(PrecisionTableModel::GainColumn));
}

// The layers inside If/Loop bodies show their predicted time (one run of the body) like the main graph's; the
// INT8 gain stays empty there. Before, the whole Predicted ms column was empty for body rows.
void LatencyPredictionTest::bodyLayersShowTheirPredictedTime() {
    Fixture f;
    test::ModelBuilder branches;
    branches.proto() = test::convBranchesModel()->proto();
    QVERIFY(f.open(&branches));
    QVERIFY(f.chooseAndWait("t4"));
    const BodyPath thenBranch = {{"route", "then_branch"}};
    const BodyGraph* body = findBodyGraph(f.document->bodyGraphs(), thenBranch);
    QVERIFY(body);
    const int row = f.table->rowOf(BodyNodeRef{thenBranch, *body->body.graph.findNode("t1")});
    QVERIFY(row >= 0);
    bool ok = false;
    const double ms = f.table->index(row, PrecisionTableModel::PredictedColumn).data().toString().toDouble(&ok);
    QVERIFY2(ok && ms > 0.0, qPrintable(f.table->index(row, PrecisionTableModel::PredictedColumn).data().toString()));
    QCOMPARE(
        ms,
        QString::number(f.document->latencyPrediction()->bodyLayerMs.at("route/then_branch/t1"), 'f', 4).toDouble());
    QVERIFY(f.table->index(row, PrecisionTableModel::GainColumn).data().toString().isEmpty());
    QVERIFY(f.document->latencyPrediction()->estimate.bodiesMs > 0.0);  // the plan's total counts the bodies
}

// What `lint --gpu` reports, the findings panel shows: the costly island, with its numbers, once a GPU is chosen.
void LatencyPredictionTest::theLatencyRulesFindingsJoinTheWindowsFindings() {
    Fixture f;
    QVERIFY(f.open());
    const auto islandFindings = [&] {
        int count = 0;
        for (const Finding& finding : f.document->lint().findings)
            count += finding.ruleId == "trt-int8-island-slower" && finding.nodeName == "small";
        return count;
    };
    QCOMPARE(islandFindings(), 0);  // no GPU: the latency rules say nothing
    QVERIFY(f.chooseAndWait("t4"));
    QVERIFY(QTest::qWaitFor([&] { return islandFindings() == 1; }, 10000));
    // A plan edit relints: the old latency findings go until the new prediction's come.
    f.document->setRequestedPrecision({f.node("small"), f.node("small_relu")}, Precision::Fp16);
    QVERIFY(f.waitForPrediction());
    QCOMPARE(islandFindings(), 0);  // the costly island is FP16 now
}

void LatencyPredictionTest::aPlanEditMarksThemStaleThenChangesThem() {
    Fixture f;
    QVERIFY(f.open());
    QVERIFY(f.chooseAndWait("t4"));
    const double before = f.document->latencyPrediction()->estimate.totalMs;
    const QString smallBefore = f.cell("small", PrecisionTableModel::PredictedColumn);
    f.document->setRequestedPrecision({f.node("small"), f.node("small_relu")}, Precision::Fp16);
    QVERIFY(f.document->isLatencyPredictionStale());  // until the new one arrives
    QVERIFY(f.header(PrecisionTableModel::PredictedColumn).endsWith(QStringLiteral("(updating)")));
    QVERIFY(f.status().endsWith(QStringLiteral("(updating...)")));
    QVERIFY(f.waitForPrediction());
    QVERIFY(f.document->latencyPrediction()->estimate.totalMs < before);  // the costing island is gone
    QVERIFY(f.cell("small", PrecisionTableModel::PredictedColumn) != smallBefore);
    // A target change recomputes: TensorRT 8.6 builds weakly typed.
    f.document->setTrtTarget({TrtVersion::Trt86, TrtTyping::Weak});
    QVERIFY(f.document->isLatencyPredictionStale());
    QVERIFY(f.waitForPrediction());
    QCOMPARE(f.document->latencyPrediction()->engine.target.version, TrtVersion::Trt86);
    // And a GPU change.
    QVERIFY(f.chooseAndWait("a100"));
    QVERIFY(f.status().startsWith(QStringLiteral("Predicted on A100")));
}

void LatencyPredictionTest::theStatusBarComparesThePlanWithAllFp16AndAllInt8() {
    Fixture f;
    QVERIFY(f.open());
    QVERIFY(f.chooseAndWait("t4"));
    const auto prediction = f.document->latencyPrediction();
    const QString expected =
        QStringLiteral("Predicted on T4: plan %1 ms \u00b7 all-FP16 %2 \u00b7 all-INT8 %3 (estimate, \u00b1")
            .arg(prediction->estimate.totalMs, 0, 'f', 3)
            .arg(prediction->fp16TotalMs, 0, 'f', 3)
            .arg(prediction->int8TotalMs, 0, 'f', 3);
    QVERIFY2(f.status().startsWith(expected), qPrintable(f.status()));
    QVERIFY(f.window.findChild<QLabel*>(QStringLiteral("LatencyPredictionLabel"))
                ->toolTip()
                .contains(QStringLiteral("estimates")));
}

void LatencyPredictionTest::theOverlayPaintsAnIslandThatPaysGreenAndOneThatCostsRed() {
    Fixture f;
    QVERIFY(f.open());
    QVERIFY(f.chooseAndWait("t4"));
    f.window.engine()->setColoring(NodeColoring::PredictedGain);
    auto* view = f.window.findChild<GraphView*>();
    auto fill = [&](const char* name) { return view->graphScene()->itemForNode(f.node(name))->fill(); };
    QCOMPARE(fill("big"), int8PaysFill());
    QCOMPARE(fill("small"), int8CostsFill());
    QCOMPARE(fill("small_relu"), int8CostsFill());  // fused: the layer's colour
    QCOMPARE(fill("before"), neutralGainFill());    // FP16
    QVERIFY(view->legend()->labels().contains(QStringLiteral("INT8 pays")));
    QVERIFY(view->graphScene()->itemForNode(f.node("small"))->toolTip().contains(QStringLiteral("INT8 costs")));
}

// x [batch, 16, 8, 8] -> Conv: the batch counts as 1, as in the MACs column, and the status bar says so.
void LatencyPredictionTest::aDynamicBatchIsSaidToCountAsOne() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 16, 8, 8});
    b.initializer("w", {16, 16, 3, 3}, test::seededFloats(16 * 16 * 9));
    b.node("Conv", {"x", "w"}, {"y"}, "conv").ints("pads", {1, 1, 1, 1});
    b.output("y");
    Fixture f;
    QVERIFY(f.open(&b));
    QVERIFY(f.chooseAndWait("t4"));
    QVERIFY2(f.status().contains(QStringLiteral("open dims as 1")), qPrintable(f.status()));
}

// A table GPU is saved as its default profile; the reopened project predicts on it without asking.
void LatencyPredictionTest::theChosenGpuIsKeptInTheProject() {
    Fixture f;  // its folder keeps the model for the reopened project
    QVERIFY(f.open());
    QVERIFY(f.chooseAndWait("l4"));
    const QString projectPath = QString::fromStdString(f.dir.path() + "/islands.qlproj");
    QVERIFY(f.window.project()->saveProjectAs(projectPath));
    MainWindow reopened;
    QVERIFY(test::openAndWait(reopened, projectPath));
    QCOMPARE(reopened.findChild<GpuChoiceBox*>()->currentText(), QStringLiteral("L4"));
    QVERIFY(QTest::qWaitFor([&] { return reopened.document()->latencyPrediction() != nullptr; }, 10000));
}

// A profile fitted to engine reports (fit-gpu --project) is the box's second entry, chosen, and the numbers quote
// its leave-one-out error instead of the unfitted model's.
void LatencyPredictionTest::aFittedProfileIsOfferedAndQuotesItsError() {
    Fixture f;
    QVERIFY(f.open());
    GpuProfile fitted = defaultGpuProfile(*findGpu("t4"));
    fitted.classes[static_cast<size_t>(CostClass::Convolution)].computeEfficiency = 0.31;
    FitQuality fit;
    fit.layers = 40;
    fit.totalError = 0.05;
    fit.leaveOneOutError = 0.12;
    fitted.fit = fit;
    f.document->setGpuProfile(std::make_shared<const GpuProfile>(fitted));
    QVERIFY(f.waitForPrediction());
    auto* box = f.window.findChild<GpuChoiceBox*>();
    QCOMPARE(box->currentIndex(), 1);
    QCOMPARE(box->currentText(), QStringLiteral("T4 (fitted profile)"));
    QVERIFY2(f.status().contains(QStringLiteral("\u00b112%")), qPrintable(f.status()));
    // A table GPU replaces it; the fitted one stays in the list to go back to.
    QVERIFY(f.chooseAndWait("t4"));
    QVERIFY(!f.document->gpuProfile()->fit);
    QCOMPARE(box->itemText(1), QStringLiteral("T4 (fitted profile)"));
}

QTEST_MAIN(LatencyPredictionTest)
#include "latency_prediction_test.moc"
