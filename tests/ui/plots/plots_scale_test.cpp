// Issue 29, "plots that scale" and "every output": the layer error plot on a generated 120-layer chain whose every
// layer reads a Constant (no position for them, the worst N, both orders, names in the tooltips and on the axis,
// zoom kept within the layers); the tune steps plot past 50 steps; the output scatter's selector on a 2-output model
// analysed for real, and a project keeping every output's scatter.
#include <qcustomplot.h>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/npy.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"
#include "ui/calibration/calibration_job.h"
#include "ui/model_document.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/plots/tune_steps_plot.h"
#include "ui/project_file.h"

using namespace ql;

class PlotsScaleTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void layerErrorSkipsConstantsAndShowsTheWorstN();
    void layerErrorSortsByDepthOrByError();
    void layerErrorNamesLayersWhereTheyFit();
    void layerErrorZoomStaysWithinTheLayers();
    void controlsFitANarrowDock();
    void layerErrorSurvivesAModelSwitch();
    void tuneStepsPastFiftyZoomAndShrinkTheirMarkers();
    void scatterSelectsEveryOutput();
    void projectKeepsEveryOutputsScatter();
    void scatterWithoutValuesSaysSo();
    void aLongNoteDoesNotGrowTheDock();

private:
    test::TempDir mDir;
    ui::ModelDocument mChain;  // 120 Add layers, each reading a Constant
    ui::ModelDocument mTwoOutputs;
};

namespace {

constexpr int kLayers = 120;

// x [1, 4] -> (Constant c_i, Add) x kLayers: every other node a Constant, as exporters write biases and shapes.
std::string writeChain(const test::TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    std::string previous = "x";
    for (int i = 0; i < kLayers; ++i) {
        const std::string index = std::to_string(i), constant = "c" + index, sum = "a" + index;
        b.node("Constant", {}, {constant}, "const_" + index)
            .tensor("value", test::makeTensor(constant, DataType::Float, {4}, {0.5, 0.25, -0.5, 1.0}));
        b.node("Add", {previous, constant}, {sum},
               "/backbone/stage" + std::to_string(i / 10) + "/block" + index + "/Add");
        previous = sum;
    }
    b.output(previous);
    const std::string path = dir.file("chain.onnx");
    b.save(path);
    return path;
}

// Layer i's SQNR: a saw-tooth, so that the worst layers are spread over the depth; Constants are exact.
double chainSqnr(int layer) {
    return 20.0 + static_cast<double>((layer * 37) % kLayers) / 4.0;
}

std::shared_ptr<AnalysisReport> chainReport(const Graph& graph) {
    auto report = std::make_shared<AnalysisReport>();
    report->samples = 8;
    for (const Node& node : graph.nodes()) {
        LayerError layer{node.id, node.outputs[0], Precision::Int8, {}};
        const bool constant = node.opType == "Constant";
        layer.precision = constant ? Precision::Fp32 : Precision::Int8;
        layer.metrics.sqnrDb = constant ? std::numeric_limits<double>::infinity()
                                        : chainSqnr(std::stoi(graph.value(node.outputs[0]).name.substr(1)));
        report->layers.push_back(layer);
    }
    return report;
}

// y = fc2(relu(fc1(x))) and h = fc1(x): two float outputs of different sizes.
std::string writeTwoOutputs(const test::TempDir& dir) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8});
    b.initializer("w1", {8, 6}, test::seededFloats(48, 3));
    b.initializer("w2", {6, 4}, test::seededFloats(24, 4));
    b.node("MatMul", {"x", "w1"}, {"h"}, "fc1");
    b.node("Relu", {"h"}, {"r"}, "relu");
    b.node("MatMul", {"r", "w2"}, {"y"}, "fc2");
    b.output("y");
    b.output("h");
    const std::string path = dir.file("two_outputs.onnx");
    b.save(path);
    return path;
}

void load(ui::ModelDocument& document, const std::string& path) {
    const auto loaded = ui::ModelDocument::load(QString::fromStdString(path));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    document.replaceModel(*loaded);
}

double sqnrAt(const ui::ModelDocument& document, const ui::LayerErrorPlot& plot, int position) {
    const auto report = document.analysis(AnalysisMode::Accumulated);
    for (const LayerError& layer : report->layers)
        if (layer.node == plot.nodeAt(position)) return layer.metrics.sqnrDb;
    return std::nan("");
}

void showAndReplot(QWidget& widget, QCustomPlot* plot, int width) {
    widget.resize(width, 420);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    plot->replot();  // the layout of the new size
    plot->replot();  // the names for it
}

}  // namespace

void PlotsScaleTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    load(mChain, writeChain(mDir));
    mChain.setAnalysis(AnalysisMode::Accumulated, chainReport(mChain.model()->graph()));

    load(mTwoOutputs, writeTwoOutputs(mDir));
    const std::string data = mDir.file("x.npy");
    QVERIFY(writeNpy(data, Tensor::fromVector(DataType::Float, {16, 8}, test::seededFloats(16 * 8, 9))));
    ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.samples = 16;
    request.analyze = true;
    request.evaluationData = request.data;
    request.evaluationSamples = 16;
    const Model& model = *mTwoOutputs.model();
    const ui::CalibrationOutcome outcome =
        ui::runCalibrationJob(model, defaultPrecisionPlan(model.graph()), request, {}, {});
    QVERIFY2(outcome.status.isOk(), outcome.status.message().c_str());
    QVERIFY(outcome.accumulated);
    mTwoOutputs.setAnalysis(AnalysisMode::Accumulated, outcome.accumulated);
}

void PlotsScaleTest::layerErrorSkipsConstantsAndShowsTheWorstN() {
    ui::LayerErrorPlot plot;
    plot.setDocument(&mChain);
    plot.setSeries(ui::LayerErrorPlot::Series::Accumulated);
    // 240 nodes, 120 with an error: no position for a Constant.
    QCOMPARE(plot.measuredCount(), kLayers);
    QCOMPARE(plot.worstCount(), 50);  // the default
    QCOMPARE(plot.positionCount(), 50);
    QCOMPARE(plot.barCount(AnalysisMode::Accumulated), 50);
    const Graph& graph = mChain.model()->graph();
    double worstShown = -1.0;
    for (int i = 0; i < plot.positionCount(); ++i) {
        QCOMPARE(QString::fromStdString(graph.node(plot.nodeAt(i)).opType), QStringLiteral("Add"));
        worstShown = std::max(worstShown, sqnrAt(mChain, plot, i));
    }
    // The 50 shown are the 50 lowest SQNRs: 50 distinct values 20, 20.25, ... (the saw-tooth's steps).
    QCOMPARE(worstShown, 20.0 + 49 / 4.0);
    plot.setWorstCount(25);
    QCOMPARE(plot.positionCount(), 25);
    plot.setWorstCount(ui::LayerErrorPlot::kAllLayers);
    QCOMPARE(plot.positionCount(), kLayers);
    QVERIFY(plot.customPlot()->xAxis->label().contains(QStringLiteral("120 layers")));
}

void PlotsScaleTest::layerErrorSortsByDepthOrByError() {
    ui::LayerErrorPlot plot;
    plot.setDocument(&mChain);
    QCOMPARE(plot.order(), ui::LayerErrorPlot::Order::Graph);
    for (int i = 1; i < plot.positionCount(); ++i) QVERIFY(plot.nodeAt(i - 1) < plot.nodeAt(i));
    plot.setOrder(ui::LayerErrorPlot::Order::WorstFirst);
    QCOMPARE(plot.positionCount(), 50);
    for (int i = 1; i < plot.positionCount(); ++i) QVERIFY(sqnrAt(mChain, plot, i - 1) <= sqnrAt(mChain, plot, i));
    QCOMPARE(sqnrAt(mChain, plot, 0), 20.0);
    QVERIFY(plot.customPlot()->xAxis->label().contains(QStringLiteral("worst first")));
}

void PlotsScaleTest::layerErrorNamesLayersWhereTheyFit() {
    ui::LayerErrorPlot plot;
    plot.setDocument(&mChain);
    plot.setWorstCount(25);
    showAndReplot(plot, plot.customPlot(), 1200);
    const Graph& graph = mChain.model()->graph();
    // 25 layers in 1200 pixels: every one is named, its name's end kept when it is shortened.
    for (int i = 0; i < plot.positionCount(); ++i) {
        const QString name = QString::fromStdString(graph.node(plot.nodeAt(i)).name);
        QVERIFY2(name.endsWith(plot.tickLabelAt(i).remove(QChar(0x2026))), qPrintable(plot.tickLabelAt(i)));
        QVERIFY(plot.tickLabelAt(i).endsWith(QStringLiteral("/Add")));
        QVERIFY(plot.toolTipFor(i).startsWith(name + QStringLiteral(" (Add), INT8")));
        QVERIFY(plot.toolTipFor(i).contains(QStringLiteral("accumulated: SQNR")));
    }
    // All 120 in 500 pixels: every k-th one, k the same along the axis.
    plot.setWorstCount(ui::LayerErrorPlot::kAllLayers);
    showAndReplot(plot, plot.customPlot(), 500);
    int named = 0;
    for (int i = 0; i < plot.positionCount(); ++i) named += !plot.tickLabelAt(i).isEmpty();
    QVERIFY2(named > 5 && named < kLayers / 2, qPrintable(QString::number(named)));
    QVERIFY(!plot.tickLabelAt(0).isEmpty());
    // Zoomed in to 10 layers, each one is named again.
    plot.customPlot()->xAxis->setRange(30, 40);
    plot.customPlot()->replot();
    for (int i = 31; i < 40; ++i) QVERIFY2(!plot.tickLabelAt(i).isEmpty(), qPrintable(QString::number(i)));
}

void PlotsScaleTest::layerErrorZoomStaysWithinTheLayers() {
    ui::LayerErrorPlot plot;
    plot.setDocument(&mChain);
    QCPAxis* axis = plot.customPlot()->xAxis;
    const QCPRange all = axis->range();
    QVERIFY(all.lower < 0.0 && all.upper > 49.0 && all.upper < 50.0);
    QVERIFY(plot.customPlot()->interactions().testFlag(QCP::iRangeZoom));
    axis->setRange(-100, 400);  // zoomed out past the data
    QCOMPARE(axis->range(), all);
    axis->setRange(10, 20);
    QCOMPARE(axis->range(), QCPRange(10, 20));
    axis->setRange(45, 55);  // dragged past the last layer: stops there
    QCOMPARE(axis->range().upper, all.upper);
    QCOMPARE(axis->range().size(), 10.0);
}

// At 1280x800 the plot docks are about 280 pixels wide: three full-width combos made the dock wider.
void PlotsScaleTest::controlsFitANarrowDock() {
    ui::LayerErrorPlot layers;
    layers.setDocument(&mChain);
    QVERIFY2(layers.minimumSizeHint().width() <= 280, qPrintable(QString::number(layers.minimumSizeHint().width())));
    ui::OutputScatterPlot scatter;
    scatter.setDocument(&mTwoOutputs);
    QVERIFY(scatter.minimumSizeHint().width() <= 280);
    // Docked narrow and short (beside the histogram at 1280x800): the legend stands above the bars, not over them,
    // and the y axis's label is one that fits (cut, it read "SQNR dB, higher is bette").
    layers.resize(300, 260);
    layers.show();
    QVERIFY(QTest::qWaitForWindowExposed(&layers));
    QCustomPlot* plot = layers.customPlot();
    plot->replot();
    plot->replot();
    QVERIFY(plot->legend->visible());
    const QRect bars = plot->axisRect()->rect();
    const QRect legend = plot->legend->outerRect();
    QVERIFY2(legend.bottom() <= bars.top(),
             qPrintable(QStringLiteral("legend %1, bars from %2").arg(legend.bottom()).arg(bars.top())));
    const auto labelFits = [plot] {
        return QFontMetrics(plot->yAxis->labelFont()).horizontalAdvance(plot->yAxis->label()) <=
               plot->axisRect()->height();
    };
    QCOMPARE(plot->yAxis->label(), QStringLiteral("SQNR dB"));
    QVERIFY(labelFits());
    layers.resize(300, 600);
    QTest::qWait(50);
    plot->replot();
    plot->replot();
    QCOMPARE(plot->yAxis->label(), QStringLiteral("SQNR dB, higher is better"));
    QVERIFY(labelFits());
}

// A new model's planChanged comes before its analysisChanged: the redraw in between named the old rows' nodes in
// the new graph (an out-of-range id threw).
void PlotsScaleTest::layerErrorSurvivesAModelSwitch() {
    ui::ModelDocument document;
    load(document, mDir.file("chain.onnx"));
    document.setAnalysis(AnalysisMode::Accumulated, chainReport(document.model()->graph()));
    ui::LayerErrorPlot plot;
    plot.setDocument(&document);
    showAndReplot(plot, plot.customPlot(), 600);
    QCOMPARE(plot.positionCount(), 50);
    load(document, mDir.file("two_outputs.onnx"));  // 3 nodes
    QCOMPARE(plot.positionCount(), 0);
    QVERIFY(!plot.placeholderText().isEmpty());
}

void PlotsScaleTest::tuneStepsPastFiftyZoomAndShrinkTheirMarkers() {
    const auto steps = [](int count) {
        std::vector<ui::TuneStepRow> rows;
        for (int i = 1; i <= count; ++i)
            rows.push_back({.number = i,
                            .actionText = QStringLiteral("fallback"),
                            .layer = QStringLiteral("/layer%1/Conv").arg(i),
                            .change = QStringLiteral("fp16"),
                            .value = 30.0 + i % 7,
                            .kept = i % 3 == 0,
                            .samples = 16,
                            .why = {},
                            .predictedMs = std::nullopt});
        return rows;
    };
    const TuneTarget target = *TuneTarget::parse("output-sqnr>=40");
    ui::TuneStepsPlot plot;
    plot.setSteps(steps(10), target);
    showAndReplot(plot, plot.customPlot(), 600);
    const double fewSteps = plot.markerSize();
    plot.setSteps(steps(300), target);
    plot.customPlot()->replot();
    QVERIFY2(plot.markerSize() < fewSteps, qPrintable(QString::number(plot.markerSize())));
    QCOMPARE(plot.keptPointCount() + plot.rejectedPointCount(), 300);
    // The step ticks thin out: a handful of labels, not 300.
    QVector<double> ticks;
    QVector<QString> labels;
    plot.customPlot()->xAxis->ticker()->generate(plot.customPlot()->xAxis->range(), QLocale(), QLatin1Char('g'), 0,
                                                 ticks, nullptr, &labels);
    QVERIFY2(ticks.size() <= 12, qPrintable(QString::number(ticks.size())));
    // Zoomed in on 20 steps, within the 300, with full-size markers; the tooltips name the step.
    QCPAxis* axis = plot.customPlot()->xAxis;
    axis->setRange(-50, 20);
    QCOMPARE(axis->range(), QCPRange(0.4, 70.4));
    axis->setRange(100, 120);
    plot.customPlot()->replot();
    QCOMPARE(plot.markerSize(), fewSteps);
    QVERIFY(plot.toolTipFor(109).startsWith(QStringLiteral("Step 110: fallback /layer110/Conv")));
}

void PlotsScaleTest::scatterSelectsEveryOutput() {
    const auto report = mTwoOutputs.analysis(AnalysisMode::Accumulated);
    QCOMPARE(report->outputErrors.size(), size_t{2});
    ui::OutputScatterPlot plot;
    plot.setDocument(&mTwoOutputs);
    QCOMPARE(plot.outputNames(), (QStringList{QStringLiteral("y"), QStringLiteral("h")}));
    QCOMPARE(plot.currentOutput(), QStringLiteral("y"));
    QCOMPARE(static_cast<size_t>(plot.pointCount()), report->outputErrors[0].pairs.size());
    QCOMPARE(plot.pointCount(), 16 * 4);
    plot.selectOutput(QStringLiteral("h"));
    QCOMPARE(plot.currentOutput(), QStringLiteral("h"));
    QCOMPARE(plot.pointCount(), 16 * 6);
    QCOMPARE(plot.customPlot()->graph(0)->dataCount(), 16 * 6);
    // The points are h's: its FP32 values (the graph keeps them sorted), not y's.
    const std::vector<OutputPair>& pairs = report->outputErrors[1].pairs;
    const auto lowest = std::min_element(pairs.begin(), pairs.end(),
                                         [](const OutputPair& a, const OutputPair& b) { return a.fp32 < b.fp32; });
    QCOMPARE(plot.customPlot()->graph(0)->data()->at(0)->key, static_cast<double>(lowest->fp32));
    // The note: h's summary and which output is the worst, not a line per output (those are its tooltip).
    const QString note = plot.note();
    QVERIFY2(note.count(QStringLiteral("SQNR")) <= 1, qPrintable(note));
    QVERIFY2(note.contains(QStringLiteral("of the 2 outputs")) && note.contains(QStringLiteral("(hover for each)")),
             qPrintable(note));
    QVERIFY(plot.noteToolTip().startsWith(QStringLiteral("y: SQNR")));
    QVERIFY(plot.noteToolTip().contains(QStringLiteral("\nh: SQNR")));
    // A new analysis keeps the chosen output.
    mTwoOutputs.setAnalysis(AnalysisMode::Accumulated, std::make_shared<AnalysisReport>(*report));
    QCOMPARE(plot.currentOutput(), QStringLiteral("h"));
    QCOMPARE(plot.pointCount(), 16 * 6);
}

void PlotsScaleTest::projectKeepsEveryOutputsScatter() {
    const QString path = QString::fromStdString(mDir.file("two.qlproj"));
    const Status saved = ui::saveProject(mTwoOutputs, path);
    QVERIFY2(saved.isOk(), saved.message().c_str());
    const auto loaded = ui::loadProject(path);
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    QVERIFY(loaded->accumulated);
    const auto report = mTwoOutputs.analysis(AnalysisMode::Accumulated);
    QCOMPARE(loaded->accumulated->outputErrors.size(), size_t{2});
    for (size_t o = 0; o < 2; ++o) {
        QCOMPARE(loaded->accumulated->outputErrors[o].pairs.size(), report->outputErrors[o].pairs.size());
        QCOMPARE(loaded->accumulated->outputErrors[o].pairs.back().quantized,
                 report->outputErrors[o].pairs.back().quantized);
    }
    QCOMPARE(loaded->accumulated->outputPairs.size(), report->outputPairs.size());
}

// A project written without output values (built from the CLI's outputs): the errors above, and in place of empty
// axes around 0 with a diagonal, what to do to see the values.
void PlotsScaleTest::scatterWithoutValuesSaysSo() {
    auto report = std::make_shared<AnalysisReport>(*mTwoOutputs.analysis(AnalysisMode::Accumulated));
    report->outputPairs.clear();
    for (OutputError& output : report->outputErrors) output.pairs.clear();
    ui::ModelDocument document;
    load(document, mDir.file("two_outputs.onnx"));
    document.setAnalysis(AnalysisMode::Accumulated, report);
    ui::OutputScatterPlot plot;
    plot.setDocument(&document);
    QCOMPARE(plot.pointCount(), 0);
    QVERIFY2(plot.placeholderText().contains(QStringLiteral("Measure Again")), qPrintable(plot.placeholderText()));
    QVERIFY2(plot.note().contains(QStringLiteral("agreement with FP32")), qPrintable(plot.note()));
    QVERIFY(!plot.customPlot()->xAxis->visible());
    plot.selectOutput(QStringLiteral("h"));
    QVERIFY(!plot.placeholderText().isEmpty());
}

// The note (every output's errors) wraps into more rows at a narrow width: the dock asked for them, and at 1280x800
// a scatter of four outputs in a tab behind the Layer Error plot pushed the status bar off the screen (BlazeFace).
void PlotsScaleTest::aLongNoteDoesNotGrowTheDock() {
    QMainWindow window;
    auto* dock = new QDockWidget(QStringLiteral("Output Scatter"), &window);
    auto* plot = new ui::OutputScatterPlot(dock);
    dock->setWidget(plot);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    // In a tab behind another plot, never shown yet, as the first-run arrangement has it.
    auto* front = new QDockWidget(QStringLiteral("Layer Error"), &window);
    front->setWidget(new ui::LayerErrorPlot(front));
    window.tabifyDockWidget(dock, front);
    front->raise();
    window.resize(700, 500);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.resizeDocks({front}, {280}, Qt::Horizontal);
    const QSize dockMinimum = dock->minimumSizeHint(), windowMinimum = window.minimumSizeHint();
    plot->setDocument(&mTwoOutputs);
    QVERIFY(plot->note().size() > 40);
    QTest::qWait(20);
    QCOMPARE(dock->minimumSizeHint(), dockMinimum);
    QCOMPARE(window.minimumSizeHint(), windowMinimum);
}

QTEST_MAIN(PlotsScaleTest)
#include "plots_scale_test.moc"
