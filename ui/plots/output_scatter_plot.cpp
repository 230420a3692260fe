#include "ui/plots/output_scatter_plot.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/quant/output_kind.h"

#include "ui/model_document.h"

namespace ql::ui {

namespace {

QString percent(double rate) {
    return QStringLiteral("%1%").arg(100.0 * rate, 0, 'f', 2);
}

QString sqnrText(const ErrorMetrics& m) {
    return std::isfinite(m.sqnrDb) ? QStringLiteral("%1 dB").arg(m.sqnrDb, 0, 'f', 2) : QObject::tr("exact");
}

QString metricsText(const ErrorMetrics& m) {
    return QObject::tr("SQNR %1, cosine %2, max |err| %3")
        .arg(sqnrText(m))
        .arg(m.cosine, 0, 'f', 5)
        .arg(m.maxAbs, 0, 'g', 4);
}

QString valueName(const Graph& graph, ValueId value) {
    return QString::fromStdString(graph.value(value).name);
}

// One output of a report: what the selector lists and the plot shows.
struct ShownOutput {
    ValueId value = kNoId;
    const OutputError* error = nullptr;  // null in a report from before per-output errors
    const std::vector<OutputPair>* pairs = nullptr;
};

// The outputs of `report` in graph order; a report from before per-output errors has the first output only.
std::vector<ShownOutput> shownOutputs(const AnalysisReport& report, const Graph* graph) {
    const ValueId first = graph && !graph->outputs().empty() ? graph->outputs().front() : kNoId;
    std::vector<ShownOutput> outputs;
    for (const OutputError& out : report.outputErrors) {
        // A project saved before every output kept its pairs has them for the first output only.
        const bool olderFirst = out.pairs.empty() && out.output == first;
        outputs.push_back({out.output, &out, olderFirst ? &report.outputPairs : &out.pairs});
    }
    if (outputs.empty()) outputs.push_back({first, nullptr, &report.outputPairs});
    return outputs;
}

// A class vector: does the quantized model pick the same class (and the right one, with labels)?
QString classVectorSummary(const OutputAgreement& o) {
    if (o.samples == 0) return QObject::tr("Class vector, but no per-sample top-1 (the output has no batch rows)");
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

// Boxes, scores, maps, embeddings: how close the values are (argmax over them means nothing). The shown output's
// error only: a line per output took a narrow dock's height from the plot (BlazeFace's four); the worst output is
// named under it (worstOutputText) and the whole list is the note's tooltip (outputErrorsText).
QString valuesSummary(const AnalysisReport& report, const Graph& graph, ValueId output, OutputKind kind) {
    QString text = kind == OutputKind::Detection ? QObject::tr("Detection output") : QObject::tr("Output");
    if (output != kNoId)
        text += QStringLiteral(" '%1' %2")
                    .arg(valueName(graph, output), QString::fromStdString(graph.value(output).type.shapeString()));
    text += QObject::tr(" (values: top-1 agreement does not apply)");
    for (const OutputError& out : report.outputErrors)
        if (out.output == output) text += QStringLiteral(": ") + metricsText(out.metrics);
    // An older project's report has only the per-layer rows.
    if (report.outputErrors.empty())
        for (const LayerError& layer : report.layers)
            if (layer.output == output) text += QStringLiteral(": ") + metricsText(layer.metrics);
    // The channel groups split the first output only (AnalysisOptions::outputGroups).
    if (!graph.outputs().empty() && output == graph.outputs().front())
        for (const OutputGroupError& group : report.outputGroups)
            text += QStringLiteral("\n%1: ").arg(QString::fromStdString(group.group.name)) + metricsText(group.metrics);
    return text;
}

// With more than one output, which is the worst (by SQNR): a line under the shown one's summary.
QString worstOutputText(const AnalysisReport& report, const Graph& graph, ValueId output) {
    const auto& outputs = report.outputErrors;
    if (outputs.size() < 2) return {};
    const auto worst = std::min_element(outputs.begin(), outputs.end(), [](const OutputError& a, const OutputError& b) {
        return a.metrics.sqnrDb < b.metrics.sqnrDb;
    });
    if (worst->output == output)
        return QObject::tr("\nThe worst of the %1 outputs (hover for each).").arg(outputs.size());
    return QObject::tr("\nWorst of the %1 outputs: '%2', SQNR %3 (hover for each).")
        .arg(outputs.size())
        .arg(valueName(graph, worst->output), sqnrText(worst->metrics));
}

// Every output's error, a line each (the note's tooltip).
QString outputErrorsText(const AnalysisReport& report, const Graph& graph) {
    QStringList lines;
    for (const OutputError& out : report.outputErrors)
        lines.append(QStringLiteral("%1: ").arg(valueName(graph, out.output)) + metricsText(out.metrics));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

OutputScatterPlot::OutputScatterPlot(QWidget* parent) : PlotWidget(parent), mOutput(addChoice(tr("Output:"))) {
    setWindowTitle(tr("Output: FP32 vs quantized"));
    mOutput->setToolTip(tr("The graph output whose values are plotted"));
    controls()->addStretch(1);
    connect(mOutput, &QComboBox::currentIndexChanged, this, &OutputScatterPlot::redraw);
    customPlot()->xAxis->setLabel(tr("FP32 value"));
    customPlot()->yAxis->setLabel(tr("quantized value"));  // short: the dock is low at 1280x800
    customPlot()->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    rebuild();
}

void OutputScatterPlot::setDocument(ModelDocument* document) {
    if (mDocument) disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    setDialogDocument(document);
    if (document) {
        connect(document, &ModelDocument::analysisChanged, this, &OutputScatterPlot::rebuild);
        // Stale or current again (a calibration change also emits planChanged).
        connect(document, &ModelDocument::planChanged, this, &OutputScatterPlot::updateStale);
    }
    rebuild();
}

QStringList OutputScatterPlot::outputNames() const {
    QStringList names;
    for (int i = 0; i < mOutput->count(); ++i) names.append(mOutput->itemText(i));
    return names;
}

QString OutputScatterPlot::currentOutput() const {
    return mOutput->currentText();
}

void OutputScatterPlot::selectOutput(const QString& name) {
    if (const int index = mOutput->findText(name); index >= 0) mOutput->setCurrentIndex(index);
}

void OutputScatterPlot::updateStale() {
    setStaleReason(mDocument ? mDocument->analysisStaleReason() : QString());
}

// A new analysis (or document): the selector lists its outputs and keeps the shown one when it is still there.
void OutputScatterPlot::rebuild() {
    mReport.reset();
    if (mDocument) mReport = mDocument->analysis(AnalysisMode::Accumulated);
    if (mDocument && !mReport) mReport = mDocument->analysis(AnalysisMode::Isolated);
    const QString shown = mOutput->currentText();
    const Model* model = mDocument ? mDocument->model() : nullptr;
    {
        const QSignalBlocker blocker(mOutput);
        mOutput->clear();
        if (mReport && model)
            for (const ShownOutput& out : shownOutputs(*mReport, &model->graph()))
                if (out.value != kNoId) mOutput->addItem(valueName(model->graph(), out.value));
        mOutput->setCurrentIndex(std::max(0, mOutput->findText(shown)));
    }
    mOutput->setEnabled(mOutput->count() > 1);
    redraw();
}

void OutputScatterPlot::redraw() {
    updateStale();
    mPoints = 0;
    mSummary.clear();
    if (!mReport) {
        setNote({});
        showPlaceholder(noAnalysisPlaceholder());
        return;
    }
    const Model* model = mDocument ? mDocument->model() : nullptr;
    const std::vector<ShownOutput> outputs = shownOutputs(*mReport, model ? &model->graph() : nullptr);
    const ShownOutput& output =
        outputs[static_cast<size_t>(std::clamp(mOutput->currentIndex(), 0, static_cast<int>(outputs.size()) - 1))];
    // The analysis saw the values (an L2-normalized embedding is told apart by them); an older report has no kinds.
    const OutputKind kind = output.error ? output.error->kind
                            : model      ? firstOutputKind(model->graph())
                                         : OutputKind::ClassVector;
    const bool first = model && !model->graph().outputs().empty() && output.value == model->graph().outputs().front();
    // The first output's agreement is the report's own (with the labels); another output's is its entry's.
    const OutputAgreement& agreement = first || !output.error ? mReport->outputs : output.error->agreement;
    mSummary = kind == OutputKind::ClassVector || !model ? classVectorSummary(agreement)
                                                         : valuesSummary(*mReport, model->graph(), output.value, kind);
    if (model) mSummary += worstOutputText(*mReport, model->graph(), output.value);
    // Above the plot, wrapped: a box inside it ran past the right edge of a 1280-pixel window's dock.
    setNote(mSummary, model ? outputErrorsText(*mReport, model->graph()) : QString());
    if (output.pairs->empty()) {
        // Empty axes around 0 with a diagonal looked like a plot of nothing.
        showPlaceholder(
            tr("This analysis kept no output values to plot (a project written without them). "
               "Quantize > Measure Again (Ctrl+M) measures the plan again and keeps them."));
        return;
    }

    clearPlot();
    QCustomPlot* plot = customPlot();
    QVector<double> fp32, quantized;
    double low = 0.0, high = 0.0;
    for (const OutputPair& p : *output.pairs) {
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

    const double pad = 0.05 * std::max(1e-6, high - low);
    plot->xAxis->setRange(low - pad, high + pad);
    plot->yAxis->setRange(low - pad, high + pad);
    plot->replot();
}

}  // namespace ql::ui
