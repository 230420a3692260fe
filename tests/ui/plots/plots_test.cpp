// The QCustomPlot docks on real results of the sample model: the histogram has one line per calibration
// method at its amax (the used one highlighted) for the selected tensor, the per-layer plot one bar per
// analysed layer and a click selects the node, the scatter one point per kept output pair; every plot
// exports to PNG and SVG.
#include <qcustomplot.h>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/model_document.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/theme.h"

using namespace ql;

class PlotsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void histogramSaysWhenThereIsNoCalibration();
    void histogramHasOneLinePerMethodAtItsAmax();
    void histogramFollowsTheSelectedNode();
    void histogramNotesOutlierChannels();
    void histogramLabelsNeverOverlapAndNameAutosCriterion();
    void layerErrorHasABarPerLayerAndClickSelects();
    void scatterShowsTheKeptOutputPairs();
    void plotsExportToPngAndSvg();
    void placeholderFollowsTheTheme();

private:
    ui::ModelDocument mDocument;
};

namespace {

std::vector<QCPItemStraightLine*> straightLines(const QCustomPlot* plot) {
    std::vector<QCPItemStraightLine*> lines;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) lines.push_back(line);
    return lines;
}

}  // namespace

void PlotsTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    test::loadSample(mDocument);
    test::calibrateSampleNow(mDocument);
    QVERIFY(mDocument.calibration() && mDocument.analysis(AnalysisMode::Accumulated));
}

void PlotsTest::histogramSaysWhenThereIsNoCalibration() {
    ui::HistogramPlot plot;
    QVERIFY(plot.placeholderText().contains(QStringLiteral("No calibration yet")));
    ui::ModelDocument empty;
    test::loadSample(empty);
    plot.setDocument(&empty);
    QVERIFY(plot.placeholderText().contains(QStringLiteral("No calibration yet")));
    QVERIFY(straightLines(plot.customPlot()).empty());
}

void PlotsTest::histogramHasOneLinePerMethodAtItsAmax() {
    ui::HistogramPlot plot;
    plot.setDocument(&mDocument);
    // A Conv output in the middle of the network: a real spread of values.
    const Graph& graph = mDocument.model()->graph();
    QString tensor;
    for (const Node& node : graph.nodes())
        if (node.opType == "Conv" && tensor.isEmpty())
            tensor = QString::fromStdString(graph.value(node.outputs[0]).name);
    plot.showTensor(tensor);
    QCOMPARE(plot.currentTensor(), tensor);
    QVERIFY(plot.placeholderText().isEmpty());

    const TensorRange* range = mDocument.calibration()->activation(tensor.toStdString());
    QVERIFY(range && range->amaxByMethod);
    const MethodAmax& m = *range->amaxByMethod;
    std::vector<double> expected{m.minmax, m.percentile, m.entropy, m.mse};
    const auto lines = straightLines(plot.customPlot());
    QCOMPARE(lines.size(), size_t{4});
    std::vector<double> drawn;
    QCPItemStraightLine* widest = nullptr;
    for (QCPItemStraightLine* line : lines) {
        QCOMPARE(line->point1->coords().x(), line->point2->coords().x());  // vertical
        drawn.push_back(line->point1->coords().x());
        if (!widest || line->pen().widthF() > widest->pen().widthF()) widest = line;
    }
    std::sort(drawn.begin(), drawn.end());
    std::sort(expected.begin(), expected.end());
    for (size_t i = 0; i < 4; ++i) QCOMPARE(drawn[i], expected[i]);
    // The method the calibration used (entropy, the default) is the highlighted line.
    QCOMPARE(widest->point1->coords().x(), static_cast<double>(m.entropy));
    QCOMPARE(mDocument.calibration()->config.method, CalibrationMethod::Entropy);
    // The histogram itself: one graph with the stored bins.
    QCOMPARE(plot.customPlot()->graphCount(), 1);
    QCOMPARE(static_cast<size_t>(plot.customPlot()->graph(0)->dataCount()), range->histogram.bins());
    // The sample's first Conv is fused with its Relu: its output is counted on fewer samples, and the axis says so.
    QVERIFY(range->samples > 0 && range->samples < mDocument.calibration()->samples);
    QVERIFY(plot.note().contains(
        QStringLiteral("Measured on %1 of the %2 samples").arg(range->samples).arg(mDocument.calibration()->samples)));
    // ...why, and what it means: nothing, while the plan does not quantize it.
    QVERIFY2(plot.note().contains(QStringLiteral("1 sample in 16 to save time")) &&
                 plot.note().contains(QStringLiteral("nothing depends on it")),
             qPrintable(plot.note()));
    plot.showTensor(QString::fromStdString(graph.value(graph.nodes()[1].outputs[0]).name));  // that Relu: all samples
    QVERIFY(!plot.note().contains(QStringLiteral(" samples")));

    plot.setLogScale(true);
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(straightLines(plot.customPlot()).size(), size_t{4});
    plot.setLogScale(false);
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLinear);
}

void PlotsTest::histogramFollowsTheSelectedNode() {
    ui::HistogramPlot plot;
    plot.setDocument(&mDocument);
    const Graph& graph = mDocument.model()->graph();
    const Node& last = graph.nodes().back();
    plot.showNode(last.id);
    QCOMPARE(plot.currentTensor(), QString::fromStdString(graph.value(last.outputs[0]).name));
    const Node& first = graph.nodes().front();
    plot.showNode(first.id);
    QCOMPARE(plot.currentTensor(), QString::fromStdString(graph.value(first.outputs[0]).name));
}

// A quantized tensor whose channel ranges hold one channel 1000x the others (planted into the sample's calibration):
// the note says so, and the lint report has the calib-outlier-channels finding on the layer quantizing it.
void PlotsTest::histogramNotesOutlierChannels() {
    const auto diagnosis = mDocument.diagnosis();
    QVERIFY(diagnosis && diagnosis->tensors.size() > 1);
    const TensorDiagnosis& quantized = diagnosis->tensors[1];  // a Conv input inside the network
    QVERIFY(quantized.channels && quantized.channels->ratio < DiagnosisThresholds::kOutlierChannelRatio);
    auto planted = std::make_shared<CalibrationResult>(*mDocument.calibration());
    for (TensorRange& r : planted->activations)
        if (r.name == quantized.tensor) {
            r.channelAmax.assign(r.channelAmax.size(), r.amax / 1000.0f);
            r.channelAmax[2] = r.amax;
        }
    ui::ModelDocument document;
    test::loadSample(document);
    document.setCalibration(planted);
    ui::HistogramPlot plot;
    plot.setDocument(&document);
    plot.showTensor(QString::fromStdString(quantized.tensor));
    QVERIFY2(plot.note().contains(QStringLiteral("Outlier channels (1 of")), qPrintable(plot.note()));
    QVERIFY(plot.note().contains(QStringLiteral("the widest is channel 2): 1000x the median channel's range")));
    const auto& findings = document.lint().findings;
    QVERIFY(std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
        return f.ruleId == "calib-outlier-channels" && f.tensor == quantized.tensor;
    }));
    plot.showTensor(QString::fromStdString(diagnosis->tensors[0].tensor));  // the others stay quiet
    QVERIFY(!plot.note().contains(QStringLiteral("Outlier")));
}

// Issue 29 item 8: four methods within 0.3 % of each other on a short plot: each label on its own row, none over
// another; with auto, the note names its criterion and the marked line is the highest SQNR shown.
void PlotsTest::histogramLabelsNeverOverlapAndNameAutosCriterion() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document, CalibrationMethod::Auto, 256);
    const auto diagnosis = document.diagnosis();
    QVERIFY(diagnosis && diagnosis->tensors.size() > 1);
    const TensorDiagnosis& quantized = diagnosis->tensors[1];
    auto close = std::make_shared<CalibrationResult>(*document.calibration());
    for (TensorRange& r : close->activations)
        if (r.name == quantized.tensor) {
            const float a = r.amaxByMethod->minmax;
            r.amaxByMethod->percentile = a * 0.999f;
            r.amaxByMethod->entropy = a * 0.998f;
            r.amaxByMethod->mse = a * 0.997f;
        }
    ui::HistogramPlot plot;
    plot.resize(640, 220);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setDocument(&document);
    plot.showTensor(QString::fromStdString(quantized.tensor));
    // auto's choice is the marked line and the best SQNR shown; the note says by what it chose.
    QVERIFY(quantized.best());
    const QString best = QString::fromUtf8(amaxMethodKey(quantized.best()->method));
    const QStringList labels = plot.lineLabels();
    QCOMPARE(labels.filter(QStringLiteral("\u25B6 ")).size(), 1);
    QVERIFY2(labels.filter(QStringLiteral("\u25B6 ")).front().startsWith(QStringLiteral("\u25B6 ") + best),
             qPrintable(labels.join(QStringLiteral(" | "))));
    QVERIFY2(
        plot.note().contains(QStringLiteral("auto chose %1: of the four methods, the highest expected SQNR").arg(best)),
        qPrintable(plot.note()));

    document.setCalibration(close);
    plot.showTensor(QString::fromStdString(quantized.tensor));
    QCustomPlot* custom = plot.customPlot();
    custom->replot();
    QList<QRectF> boxes;
    for (int i = 0; i < custom->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(custom->item(i)))
            boxes.append(QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()));
    QCOMPARE(boxes.size(), 4);
    for (qsizetype i = 0; i < boxes.size(); ++i) {
        QVERIFY(boxes[i].height() > 8);
        for (qsizetype j = i + 1; j < boxes.size(); ++j)
            QVERIFY2(!boxes[i].intersects(boxes[j]),
                     qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(i).arg(j)));
    }
    // Whole within the plot at any width, the lines at the right end of the range or at two thirds of it (there a
    // label right of its line ran past a narrow dock's edge: "entropy 5.25 · clip").
    const auto labelsOutside = [&](int width) {
        plot.resize(width, 220);
        QTest::qWait(20);
        custom->replot();
        const QRect area = custom->axisRect()->rect();
        QStringList outside;
        for (const QRectF& box : plot.lineLabelRects())
            if (box.left() < area.left() - 1 || box.right() > area.right() + 1)
                outside.append(QStringLiteral("at %1: label %2..%3, plot %4..%5")
                                   .arg(width)
                                   .arg(box.left())
                                   .arg(box.right())
                                   .arg(area.left())
                                   .arg(area.right()));
        // The axis's caption too, its range facts whole (the tensor's name is what gives way).
        const QString caption = custom->xAxis->label();
        if (QFontMetrics(custom->xAxis->labelFont()).horizontalAdvance(caption) > area.width() ||
            !caption.endsWith(QLatin1Char(')')))
            outside.append(
                QStringLiteral("at %1: caption '%2' in %3 pixels").arg(width).arg(caption).arg(area.width()));
        return outside.join(QStringLiteral("; "));
    };
    auto twoThirds = std::make_shared<CalibrationResult>(*close);
    for (TensorRange& r : twoThirds->activations)
        if (r.name == quantized.tensor) r.amaxByMethod->entropy = r.amaxByMethod->minmax * 0.66f;
    for (const auto& calibration : {close, twoThirds}) {
        document.setCalibration(calibration);
        plot.showTensor(QString::fromStdString(quantized.tensor));
        QCOMPARE(plot.lineLabelRects().size(), 4);
        for (int width : {640, 360}) {
            const QString outside = labelsOutside(width);
            QVERIFY2(outside.isEmpty(), qPrintable(outside));
        }
    }
}

void PlotsTest::layerErrorHasABarPerLayerAndClickSelects() {
    ui::LayerErrorPlot plot;
    QVERIFY(plot.placeholderText().contains(QStringLiteral("No error analysis")));
    plot.setDocument(&mDocument);
    plot.resize(900, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const auto accumulated = mDocument.analysis(AnalysisMode::Accumulated);
    const auto isolated = mDocument.analysis(AnalysisMode::Isolated);
    const auto finite = [](const AnalysisReport& r) {
        return static_cast<int>(std::count_if(r.layers.begin(), r.layers.end(),
                                              [](const LayerError& l) { return std::isfinite(l.metrics.sqnrDb); }));
    };
    QCOMPARE(plot.barCount(AnalysisMode::Accumulated), finite(*accumulated));
    QCOMPARE(plot.barCount(AnalysisMode::Isolated), finite(*isolated));
    QVERIFY(plot.barCount(AnalysisMode::Isolated) > 0);
    QCOMPARE(plot.customPlot()->plottableCount(), 2);
    // Positions follow graph order.
    for (int i = 1; i < plot.positionCount(); ++i) QVERIFY(plot.nodeAt(i - 1) <= plot.nodeAt(i));

    plot.setSeries(ui::LayerErrorPlot::Series::Isolated);
    QCOMPARE(plot.customPlot()->plottableCount(), 1);
    QCOMPARE(plot.barCount(AnalysisMode::Accumulated), 0);

    // Click the isolated bar of the worst layer: its node is emitted; the tooltip names it.
    const LayerError& worst = isolated->layers.front();
    int position = -1;
    for (int i = 0; i < plot.positionCount(); ++i)
        if (plot.nodeAt(i) == worst.node) position = i;
    QVERIFY(position >= 0);
    plot.customPlot()->replot();
    const QPoint pixel(qRound(plot.customPlot()->xAxis->coordToPixel(position)),
                       qRound(plot.customPlot()->yAxis->coordToPixel(worst.metrics.sqnrDb / 2.0)));
    QCOMPARE(plot.positionAt(pixel), position);
    QSignalSpy clicked(&plot, &ui::LayerErrorPlot::nodeClicked);
    QTest::mouseClick(plot.customPlot(), Qt::LeftButton, Qt::NoModifier, pixel);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.front().front().value<NodeId>(), worst.node);
    const QString name = QString::fromStdString(mDocument.model()->graph().node(worst.node).name);
    QVERIFY(plot.toolTipFor(position).startsWith(name));
    QVERIFY(plot.toolTipFor(position).contains(QStringLiteral("isolated: SQNR")));
}

void PlotsTest::scatterShowsTheKeptOutputPairs() {
    ui::OutputScatterPlot plot;
    QVERIFY(!plot.placeholderText().isEmpty());
    plot.setDocument(&mDocument);
    const auto report = mDocument.analysis(AnalysisMode::Accumulated);
    QVERIFY(!report->outputPairs.empty());
    QCOMPARE(static_cast<size_t>(plot.pointCount()), report->outputPairs.size());
    QCOMPARE(plot.customPlot()->graph(0)->dataCount(), plot.pointCount());
    QVERIFY(plot.summaryText().contains(QStringLiteral("top-1 agreement")));
    QVERIFY(plot.summaryText().contains(QStringLiteral("Accuracy: FP32")));
    const auto lines = straightLines(plot.customPlot());
    QCOMPARE(lines.size(), size_t{1});  // the identity line
    QCOMPARE(lines[0]->point1->coords(), QPointF(0, 0));
    QCOMPARE(lines[0]->point2->coords(), QPointF(1, 1));
}

void PlotsTest::plotsExportToPngAndSvg() {
    test::TempDir dir;
    ui::HistogramPlot histogram;
    ui::LayerErrorPlot layers;
    ui::OutputScatterPlot scatter;
    const QList<ui::PlotWidget*> plots{&histogram, &layers, &scatter};
    for (ui::PlotWidget* plot : plots) {
        plot->resize(640, 360);
        plot->show();
    }
    histogram.setDocument(&mDocument);
    layers.setDocument(&mDocument);
    scatter.setDocument(&mDocument);
    int n = 0;
    for (ui::PlotWidget* plot : plots) {
        const QString png = QString::fromStdString(dir.file("plot" + std::to_string(n) + ".png"));
        const QString svg = QString::fromStdString(dir.file("plot" + std::to_string(n++) + ".svg"));
        QString error;
        QVERIFY2(plot->exportTo(png, &error), qPrintable(error));
        QVERIFY2(plot->exportTo(svg, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= plot->customPlot()->width());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.size() > 2000);  // axes, text and data, not an empty page
    }
    QString error;
    QVERIFY(!histogram.exportTo(QStringLiteral("/nonexistent/folder/plot.png"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent/folder/plot.png")));
}

// Issue 29 item 8: after View > Theme dark -> light the plots' placeholders ("No calibration yet.") kept the dark
// theme's light grey text, on the light theme's white.
void PlotsTest::placeholderFollowsTheTheme() {
    ui::applyTheme(ui::Theme::Dark);
    ui::HistogramPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const auto placeholderColor = [&plot] {
        for (int i = 0; i < plot.customPlot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot.customPlot()->item(i))) return text->color();
        return QColor();
    };
    QCOMPARE(placeholderColor(), plot.palette().color(QPalette::Text));
    const QColor dark = placeholderColor();
    ui::applyTheme(ui::Theme::Light);
    QCoreApplication::processEvents();
    QVERIFY(plot.palette().color(QPalette::Text) != dark);
    QCOMPARE(placeholderColor(), plot.palette().color(QPalette::Text));
}

QTEST_MAIN(PlotsTest)
#include "plots_test.moc"
