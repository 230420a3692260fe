// Renders the main window with the latency prediction on a model (default: the trained detector of tests/data/tune
// at batch 32, where INT8 pays in some regions and costs in others on a T4; bench/README.md "Plans for speed"):
// the graph coloured by Predicted INT8 gain, the Predicted ms and INT8 gain columns, the status bar's totals. For
// looking at it (docs/perf-overlay.png), not a test.
//   QT_QPA_PLATFORM=offscreen ql_perf_overlay_snapshot OUT.png [--model M.onnx] [--shapes NAME=DIMS] [--gpu t4]
//                                                     [--all-int8 | --int8 NODE,...] [--select NODE]
//                                                     [--zoom-out STEPS]
#include <QApplication>
#include <QDockWidget>
#include <QTableView>
#include <QtTest>
#include <cstdio>
#include <fstream>

#include "core/engine/plan_prediction.h"
#include "core/exec/input_shapes.h"
#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/gpu_choice_box.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/theme.h"

namespace {

QString option(const QStringList& args, const QString& name, const QString& fallback) {
    const qsizetype at = args.indexOf(name);
    return at >= 0 && at + 1 < args.size() ? args[at + 1] : fallback;
}

// `model` with `shapes` written next to the snapshot's temporary files: the window opens files.
bool writeReshaped(const std::string& model, const std::string& shapes, const std::string& path) {
    auto loaded = ql::Model::load(model);
    if (!loaded) return false;
    auto reshaped = ql::withInputShapes(**loaded, shapes);
    if (!reshaped) {
        std::fprintf(stderr, "%s\n", reshaped.status().message().c_str());
        return false;
    }
    std::ofstream out(path, std::ios::binary);
    return (*reshaped)->proto().SerializeToOstream(&out);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ql_perf_overlay_snapshot OUT.png [--model M] [--shapes NAME=DIMS] [--gpu NAME]\n");
        return 2;
    }
    const QString model =
        option(args, QStringLiteral("--model"), QStringLiteral(QL_TEST_DATA_DIR "/tune/detector.onnx"));
    const QString shapes = option(args, QStringLiteral("--shapes"), QStringLiteral("image=32x1x48x48"));
    const QString gpu = option(args, QStringLiteral("--gpu"), QStringLiteral("t4"));
    ql::test::TempDir dir;
    const std::string path = dir.path() + "/" + QFileInfo(model).fileName().toStdString();
    if (!writeReshaped(model.toStdString(), shapes.toStdString(), path)) return 1;

    ql::ui::applyTheme(ql::ui::Theme::Light);
    ql::ui::MainWindow window;
    window.resize(1700, 1250);
    window.show();
    if (!ql::test::openAndWaitForLayout(window, QString::fromStdString(path))) return 1;
    ql::ui::ModelDocument* document = window.document();
    // --all-int8: every node requested INT8 (TensorRT's rules keep what it cannot run in INT8 float), instead of the
    // default placement, which keeps the YOLO head float.
    if (args.contains(QStringLiteral("--all-int8")))
        document->replacePlan(ql::PrecisionPlan(document->model()->graph(), ql::Precision::Int8),
                              QStringLiteral("All INT8"));
    // --int8 NODE,...: these nodes INT8 too (an edit the user tries on the default plan).
    QList<ql::NodeId> int8Nodes;
    for (const QString& name : option(args, QStringLiteral("--int8"), {}).split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (auto node = document->model()->graph().findNode(name.toStdString())) int8Nodes.append(*node);
    document->setRequestedPrecision(int8Nodes, ql::Precision::Int8);
    if (!window.findChild<ql::ui::GpuChoiceBox*>()->chooseGpu(gpu)) return 1;
    if (!QTest::qWaitFor([&] { return document->latencyPrediction() && !document->isLatencyPredictionStale(); }, 60000))
        return 1;
    window.engine()->setColoring(ql::ui::NodeColoring::PredictedGain);
    // The table gets the plots' room (there is no calibration to plot) and the taller half.
    for (const char* dock : {"HistogramDock", "LayerErrorDock", "OutputScatterDock"})
        window.findChild<QDockWidget*>(QLatin1String(dock))->close();
    auto* precisionDock = window.findChild<QDockWidget*>(QStringLiteral("PrecisionDock"));
    precisionDock->raise();
    window.resizeDocks({precisionDock}, {430}, Qt::Vertical);
    // The costliest layers first, then the most paying: sorted by the INT8 gain.
    auto* panel = window.findChild<ql::ui::PrecisionPanel*>();
    panel->view()->sortByColumn(ql::ui::PrecisionTableModel::GainColumn, Qt::AscendingOrder);
    // The graph at a readable size around the last INT8 layer, where the islands meet the float head: --select NODE
    // to look elsewhere.
    const auto prediction = document->latencyPrediction();
    const ql::Graph& graph = document->model()->graph();
    int pays = 0, costs = 0;
    ql::NodeId shown = ql::kNoId;
    for (const ql::Node& node : graph.nodes()) {
        const auto gain = prediction->int8Gain(node.id);
        if (!gain || !prediction->isLayerLead(node.id) ||
            prediction->layerOf(node.id)->precision != ql::EnginePrecision::Int8)
            continue;
        (*gain > 0 ? pays : costs) += 1;
        shown = node.id;
        std::printf("%-40s %+.4f ms\n", node.name.c_str(), *gain);
    }
    std::printf("INT8 layers: %d pay, %d cost; plan %.4f ms, all-FP16 %.4f, all-INT8 %.4f\n", pays, costs,
                prediction->estimate.totalMs, prediction->fp16TotalMs, prediction->int8TotalMs);
    for (const ql::RegionDecision& region : prediction->regions)
        std::printf("INT8 island of %lld layers from %s: %s\n", static_cast<long long>(region.layers),
                    graph.node(region.nodes.front()).name.c_str(), region.why.c_str());
    auto* view = window.findChild<ql::ui::GraphView*>();
    if (auto chosen = graph.findNode(option(args, QStringLiteral("--select"), {}).toStdString())) shown = *chosen;
    if (shown != ql::kNoId) view->selectNode(shown);
    const int zoomOut = option(args, QStringLiteral("--zoom-out"), QStringLiteral("0")).toInt();
    for (int i = 0; i < zoomOut; ++i) view->zoomOut();
    panel->view()->scrollToTop();  // the sorted table from its costliest layer, whatever the graph selected
    QTest::qWait(800);
    if (!window.grab().save(args[1])) return 1;
    std::printf("%s\n", qPrintable(args[1]));
    return 0;
}
