#include "ui/plots/output_scatter_plot.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "core/quant/output_kind.h"

#include "ui/model_document.h"

namespace ql::ui {

namespace {

QString percent(double rate) {
    return QStringLiteral("%1%").arg(100.0 * rate, 0, 'f', 2);
}

QString metricsText(const ErrorMetrics& m) {
    const QString sqnr =
        std::isfinite(m.sqnrDb) ? QStringLiteral("%1 dB").arg(m.sqnrDb, 0, 'f', 2) : QObject::tr("exact");
    return QObject::tr("SQNR %1, cosine %2, max |err| %3").arg(sqnr).arg(m.cosine, 0, 'f', 5).arg(m.maxAbs, 0, 'g', 4);
}

// A class vector: does the quantized model pick the same class (and the right one, with labels)?
QString classVectorSummary(const AnalysisReport& report) {
    const OutputAgreement& o = report.outputs;
    if (o.samples == 0)
        return QObject::tr("Class vector, but no per-sample top-1 (the first output has no batch rows)");
    QString text = QObject::tr("Class vector: top-1 agreement with FP32 %1 of %2 samples")
                       .arg(percent(o.top1Agreement))
                       .arg(o.samples);
    if (o.hasLabels) {
        // Signed, as `compare` prints it: "(0.22 points)" did not say whether INT8 gained or lost them.
        const double delta = 100.0 * (o.accuracyQuant - o.accuracyFp32);
        text += QObject::tr("\nAccuracy: FP32 %1, quantized %2 (%3 points)")
                    .arg(percent(o.accuracyFp32), percent(o.accuracyQuant))
                    .arg((delta > 0 ? QStringLiteral("+") : QString()) + QString::number(delta, 'f', 2));
    }
    return text;
}

// Boxes, scores, maps, embeddings: how close the values are (argmax over them means nothing).
QString valuesSummary(const AnalysisReport& report, const Graph& graph, OutputKind kind) {
    const ValueId output = graph.outputs().empty() ? kNoId : graph.outputs().front();
    QString text = kind == OutputKind::Detection ? QObject::tr("Detection output") : QObject::tr("Output");
    if (output != kNoId)
        text += QStringLiteral(" '%1' %2")
                    .arg(QString::fromStdString(graph.value(output).name),
                         QString::fromStdString(graph.value(output).type.shapeString()));
    text += QObject::tr(" (not a class vector: top-1 agreement does not apply)");
    // The whole plan's error of each output; an older project's report has only the per-layer rows.
    for (const OutputError& out : report.outputErrors)
        text += QStringLiteral("\n%1: ").arg(QString::fromStdString(graph.value(out.output).name)) +
                metricsText(out.metrics);
    if (report.outputErrors.empty())
        for (const LayerError& layer : report.layers)
            if (layer.output == output) text += QStringLiteral("\n") + metricsText(layer.metrics);
    for (const OutputGroupError& group : report.outputGroups)
        text += QStringLiteral("\n%1: ").arg(QString::fromStdString(group.group.name)) + metricsText(group.metrics);
    return text;
}

}  // namespace

OutputScatterPlot::OutputScatterPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Output: FP32 vs quantized"));
    customPlot()->xAxis->setLabel(tr("FP32 value"));
    customPlot()->yAxis->setLabel(tr("quantized value"));  // short: the dock is low at 1280x800
    customPlot()->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    redraw();
}

void OutputScatterPlot::setDocument(ModelDocument* document) {
    if (mDocument) disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    setDialogDocument(document);
    if (document) {
        connect(document, &ModelDocument::analysisChanged, this, &OutputScatterPlot::redraw);
        // Stale or current again (a calibration change also emits planChanged).
        connect(document, &ModelDocument::planChanged, this, &OutputScatterPlot::updateStale);
    }
    redraw();
}

void OutputScatterPlot::updateStale() {
    setStaleReason(mDocument ? mDocument->analysisStaleReason() : QString());
}

void OutputScatterPlot::redraw() {
    updateStale();
    mPoints = 0;
    mSummary.clear();
    std::shared_ptr<const AnalysisReport> report;
    if (mDocument) report = mDocument->analysis(AnalysisMode::Accumulated);
    if (mDocument && !report) report = mDocument->analysis(AnalysisMode::Isolated);
    if (!report) {
        setNote({});
        showPlaceholder(noAnalysisPlaceholder());
        return;
    }
    clearPlot();
    QCustomPlot* plot = customPlot();
    QVector<double> fp32, quantized;
    double low = 0.0, high = 0.0;
    for (const OutputPair& p : report->outputPairs) {
        fp32.append(p.fp32);
        quantized.append(p.quantized);
        low = std::min({low, static_cast<double>(p.fp32), static_cast<double>(p.quantized)});
        high = std::max({high, static_cast<double>(p.fp32), static_cast<double>(p.quantized)});
    }
    auto* graph = plot->addGraph();
    graph->setLineStyle(QCPGraph::lsNone);
    QColor color = seriesColor(0);
    color.setAlpha(140);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 3.5));
    graph->setData(fp32, quantized);
    graph->setAdaptiveSampling(true);
    mPoints = static_cast<int>(fp32.size());

    auto* identity = new QCPItemStraightLine(plot);
    identity->point1->setCoords(0.0, 0.0);
    identity->point2->setCoords(1.0, 1.0);
    identity->setPen(QPen(seriesColor(3), 1.5, Qt::DashLine));

    const Model* model = mDocument->model();
    // The analysis saw the values (an L2-normalized embedding is told apart by them); an older report has no kinds.
    const OutputKind kind = !report->outputErrors.empty() ? report->outputErrors.front().kind
                            : model                       ? firstOutputKind(model->graph())
                                                          : OutputKind::ClassVector;
    mSummary = kind == OutputKind::ClassVector || !model ? classVectorSummary(*report)
                                                         : valuesSummary(*report, model->graph(), kind);
    if (report->outputPairs.empty()) mSummary += tr("\n(no output values were kept by this analysis)");
    // Above the plot, wrapped: a box inside it ran past the right edge of a 1280-pixel window's dock.
    setNote(mSummary);

    const double pad = 0.05 * std::max(1e-6, high - low);
    plot->xAxis->setRange(low - pad, high + pad);
    plot->yAxis->setRange(low - pad, high + pad);
    plot->replot();
}

}  // namespace ql::ui
