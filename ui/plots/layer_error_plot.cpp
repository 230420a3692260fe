#include "ui/plots/layer_error_plot.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

constexpr double kBarWidth = 0.8;

QString metricsText(const char* title, const std::optional<LayerError>& layer) {
    if (!layer) return {};
    const ErrorMetrics& m = layer->metrics;
    const QString sqnr =
        std::isfinite(m.sqnrDb) ? QStringLiteral("%1 dB").arg(m.sqnrDb, 0, 'f', 2) : QObject::tr("exact (no error)");
    return QObject::tr("\n%1: SQNR %2, cosine %3, MSE %4, max |err| %5")
        .arg(QLatin1String(title), sqnr)
        .arg(m.cosine, 0, 'f', 6)
        .arg(m.mse, 0, 'g', 4)
        .arg(m.maxAbs, 0, 'g', 4);
}

}  // namespace

LayerErrorPlot::LayerErrorPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Per-layer error"));
    mSeries = new QComboBox(this);
    mSeries->addItem(tr("Accumulated and isolated"), static_cast<int>(Series::Both));
    mSeries->addItem(tr("Accumulated (whole plan)"), static_cast<int>(Series::Accumulated));
    mSeries->addItem(tr("Isolated (each layer alone)"), static_cast<int>(Series::Isolated));
    controls()->addWidget(new QLabel(tr("Show:"), this));
    controls()->addWidget(mSeries);
    controls()->addStretch(1);
    connect(mSeries, &QComboBox::currentIndexChanged, this, &LayerErrorPlot::redraw);

    QCustomPlot* plot = customPlot();
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->setMouseTracking(true);
    // Short labels: the dock is about 280 pixels wide in a 1280-pixel window (the hover text says a click selects).
    plot->xAxis->setLabel(tr("layer, in graph order"));
    plot->yAxis->setLabel(tr("SQNR dB, higher is better"));
    // Layers sit at whole numbers: no ticks between them.
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(ticker);
    // One row of legend entries at the top; the y range leaves room for it above the bars.
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    connect(plot, &QCustomPlot::mouseMove, this, &LayerErrorPlot::onMouseMove);
    connect(plot, &QCustomPlot::mousePress, this, &LayerErrorPlot::onMousePress);
    connect(plot, &QCustomPlot::mouseRelease, this, &LayerErrorPlot::onMouseRelease);
    redraw();
}

void LayerErrorPlot::setDocument(ModelDocument* document) {
    if (mDocument) disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    setDialogDocument(document);
    if (document) {
        connect(document, &ModelDocument::analysisChanged, this, &LayerErrorPlot::rebuild);
        // Stale or current again (a calibration change also emits planChanged).
        connect(document, &ModelDocument::planChanged, this, &LayerErrorPlot::redraw);
    }
    rebuild();
}

void LayerErrorPlot::setSeries(Series series) {
    mSeries->setCurrentIndex(mSeries->findData(static_cast<int>(series)));
}

LayerErrorPlot::Series LayerErrorPlot::series() const {
    return static_cast<Series>(mSeries->currentData().toInt());
}

NodeId LayerErrorPlot::nodeAt(int position) const {
    return position >= 0 && position < positionCount() ? mRows[static_cast<size_t>(position)].node : kNoId;
}

int LayerErrorPlot::barCount(AnalysisMode mode) const {
    return mBars[mode == AnalysisMode::Accumulated ? 0 : 1];
}

void LayerErrorPlot::rebuild() {
    mRows.clear();
    if (mDocument) {
        // Keyed by (node, output): graph order, one position per analysed output.
        std::map<std::pair<NodeId, ValueId>, Row> rows;
        for (AnalysisMode mode : {AnalysisMode::Accumulated, AnalysisMode::Isolated}) {
            const auto report = mDocument->analysis(mode);
            if (!report) continue;
            for (const LayerError& layer : report->layers) {
                Row& row = rows[{layer.node, layer.output}];
                row.node = layer.node;
                row.output = layer.output;
                (mode == AnalysisMode::Accumulated ? row.accumulated : row.isolated) = layer;
            }
        }
        for (auto& entry : rows) mRows.push_back(std::move(entry.second));
    }
    redraw();
}

void LayerErrorPlot::redraw() {
    // Numbers of another plan must not look current.
    setStaleReason(mDocument ? mDocument->analysisStaleReason() : QString());
    mBars[0] = mBars[1] = 0;
    if (mRows.empty()) {
        customPlot()->legend->setVisible(false);
        showPlaceholder(noAnalysisPlaceholder());
        return;
    }
    clearPlot();
    QCustomPlot* plot = customPlot();
    const Series shown = series();
    const bool both = shown == Series::Both;
    double low = 0.0, high = 1.0;
    for (int s = 0; s < 2; ++s) {
        const bool accumulated = s == 0;
        if (shown == (accumulated ? Series::Isolated : Series::Accumulated)) continue;
        QVector<double> keys, values;
        for (size_t i = 0; i < mRows.size(); ++i) {
            const auto& layer = accumulated ? mRows[i].accumulated : mRows[i].isolated;
            if (!layer || !std::isfinite(layer->metrics.sqnrDb)) continue;
            // Side by side: accumulated left of the position, isolated right of it.
            keys.append(static_cast<double>(i) + (both ? (accumulated ? -0.2 : 0.2) : 0.0));
            values.append(layer->metrics.sqnrDb);
            low = std::min(low, layer->metrics.sqnrDb);
            high = std::max(high, layer->metrics.sqnrDb);
        }
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(accumulated ? tr("whole plan") : tr("layer alone"));
        bars->setWidth(both ? kBarWidth / 2.0 : kBarWidth);
        const QColor color = seriesColor(accumulated ? 0 : 1);
        bars->setPen(QPen(color.darker(120), 1));
        bars->setBrush(color);
        bars->setData(keys, values, true);
        mBars[s] = static_cast<int>(keys.size());
    }
    if (mBars[0] + mBars[1] == 0) {
        // Measured, but every layer ran in float (its SQNR is infinite): an empty frame looked broken.
        plot->legend->setVisible(false);
        showPlaceholder(
            tr("No layer of the measured plan runs in INT8: every layer matches FP32 exactly, so there "
               "is no quantization error to show. Set layers to INT8, then Measure Again."));
        return;
    }
    plot->legend->setVisible(true);
    plot->xAxis->setRange(-0.7, static_cast<double>(mRows.size()) - 0.3);
    plot->yAxis->setRange(low < 0.0 ? low * 1.1 : 0.0, high * 1.45);
    plot->replot();
}

int LayerErrorPlot::positionAt(const QPointF& pixel) const {
    const QCustomPlot* plot = customPlot();
    if (mRows.empty() || !plot->axisRect()->rect().contains(pixel.toPoint())) return -1;
    const double key = plot->xAxis->pixelToCoord(pixel.x());
    const long position = std::lround(key);
    if (position < 0 || position >= positionCount() || std::abs(key - static_cast<double>(position)) > 0.45) return -1;
    return static_cast<int>(position);
}

QString LayerErrorPlot::toolTipFor(int position) const {
    if (position < 0 || position >= positionCount() || !mDocument || !mDocument->model()) return {};
    const Row& row = mRows[static_cast<size_t>(position)];
    const Graph& graph = mDocument->model()->graph();
    const Node& node = graph.node(row.node);
    const LayerError& any = row.accumulated ? *row.accumulated : *row.isolated;
    return tr("%1 (%2), %3, output %4")
               .arg(QString::fromStdString(node.name), QString::fromStdString(node.opType),
                    QString::fromUtf8(precisionName(any.precision)).toUpper(),
                    QString::fromStdString(graph.value(row.output).name)) +
           metricsText("accumulated", row.accumulated) + metricsText("isolated", row.isolated) +
           tr("\nClick to select the layer.");
}

void LayerErrorPlot::onMouseMove(QMouseEvent* event) {
    const int position = positionAt(event->position());
    if (position < 0) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), toolTipFor(position), customPlot());
}

void LayerErrorPlot::onMousePress(QMouseEvent* event) {
    mPressPos = event->position();
}

void LayerErrorPlot::onMouseRelease(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || (event->position() - mPressPos).manhattanLength() > 4.0) return;
    const int position = positionAt(event->position());
    if (position >= 0) emit nodeClicked(mRows[static_cast<size_t>(position)].node);
}

}  // namespace ql::ui
