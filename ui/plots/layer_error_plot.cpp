#include "ui/plots/layer_error_plot.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "core/model/body_path.h"
#include "ui/model_document.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

constexpr double kBarWidth = 0.8;
// Room left and right of the outer bars.
constexpr double kKeyMargin = 0.7;

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

// The control-flow node of the main graph whose body `body` ("If_0/then_branch/...") is in, or kNoId.
NodeId controlFlowNodeOf(const Graph& graph, const std::string& body) {
    for (const Node& node : graph.nodes())
        for (const SubgraphInfo& subgraph : node.subgraphs)
            if (body.starts_with(bodyPathStep(node.name, subgraph.attribute))) return node.id;
    return kNoId;
}

// A main graph layer's row: its node's name (its output's for a node exported without one), op and output.
void describeLayer(const Graph& graph, const LayerError& layer, LayerErrorPlot::Row& row) {
    const std::string& name = graph.node(layer.node).name;
    row.node = layer.node;
    row.name = QString::fromStdString(name.empty() ? graph.value(layer.output).name : name);
    row.op = QString::fromStdString(graph.node(layer.node).opType);
    row.output = QString::fromStdString(graph.value(layer.output).name);
}

double finiteSqnr(const std::optional<LayerError>& layer) {
    return layer && std::isfinite(layer->metrics.sqnrDb) ? layer->metrics.sqnrDb
                                                         : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LayerErrorPlot::LayerErrorPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Per-layer error"));
    // The legend's words, short enough for a narrow dock; the tooltip says what they measure.
    mSeries = addChoice(tr("Show:"), {{tr("both"), static_cast<int>(Series::Both)},
                                      {tr("whole plan"), static_cast<int>(Series::Accumulated)},
                                      {tr("layer alone"), static_cast<int>(Series::Isolated)}});
    mSeries->setToolTip(
        tr("whole plan: the accumulated error, every layer in the plan's precision (SQNR in the precision table)\n"
           "layer alone: the isolated error, that layer in its precision and all others FP32 (Isolated SQNR)"));
    // No labels before these two: their items say what they choose, and the row must fit a narrow dock.
    mWorst = addChoice(
        {}, {{tr("worst 25"), 25}, {tr("worst 50"), 50}, {tr("worst 100"), 100}, {tr("all layers"), kAllLayers}});
    mWorst->setCurrentIndex(1);
    mWorst->setToolTip(tr("How many layers to show: those with the lowest SQNR in the shown series"));
    mOrder = addChoice({}, {{tr("by depth"), static_cast<int>(Order::Graph)},
                            {tr("worst first"), static_cast<int>(Order::WorstFirst)}});
    mOrder->setToolTip(tr("The order of the layers: by depth (graph order) or by SQNR"));
    controls()->addStretch(1);
    for (QComboBox* combo : {mSeries, mWorst, mOrder})
        connect(combo, &QComboBox::currentIndexChanged, this, &LayerErrorPlot::redraw);

    QCustomPlot* plot = customPlot();
    plot->setMouseTracking(true);
    // Layer names along the axis, turned upright so that neighbours do not overlap; no grid between categories.
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    ticker->setSubTickCount(0);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLabelRotation(-90.0);
    plot->xAxis->grid()->setVisible(false);
    plot->legend->setVisible(true);
    placeLegendAbove();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->xAxis->setTickLabelFont(small);
    plot->yAxis->setLabelFont(small);
    // Before every replot (zoom, pan, resize): which names fit depends on the pixels per layer.
    connect(plot, &QCustomPlot::beforeReplot, this, &LayerErrorPlot::labelPositions);
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

void LayerErrorPlot::setOrder(Order order) {
    mOrder->setCurrentIndex(mOrder->findData(static_cast<int>(order)));
}

LayerErrorPlot::Order LayerErrorPlot::order() const {
    return static_cast<Order>(mOrder->currentData().toInt());
}

void LayerErrorPlot::setWorstCount(int count) {
    if (const int index = mWorst->findData(count); index >= 0) mWorst->setCurrentIndex(index);
}

int LayerErrorPlot::worstCount() const {
    return mWorst->currentData().toInt();
}

NodeId LayerErrorPlot::nodeAt(int position) const {
    return position >= 0 && position < positionCount() ? shownRow(position).node : kNoId;
}

int LayerErrorPlot::barCount(AnalysisMode mode) const {
    return mBars[mode == AnalysisMode::Accumulated ? 0 : 1];
}

void LayerErrorPlot::rebuild() {
    mRows.clear();
    if (mDocument && mDocument->model()) {
        const Graph& graph = mDocument->model()->graph();
        // Keyed by (node, body layer, output): graph order, one position per analysed output; a body's layers after
        // their control-flow node, in the report's order (body and node order), numbered from 1.
        std::map<std::tuple<NodeId, size_t, ValueId>, Row> rows;
        std::map<std::string, size_t> bodyOrder;
        for (AnalysisMode mode : {AnalysisMode::Accumulated, AnalysisMode::Isolated}) {
            const auto report = mDocument->analysis(mode);
            if (!report) continue;
            for (const LayerError& layer : report->layers) {
                Row& row = rows[{layer.node, 0, layer.output}];
                if (row.node == kNoId) describeLayer(graph, layer, row);
                (mode == AnalysisMode::Accumulated ? row.accumulated : row.isolated) = layer;
            }
            for (const BodyLayerError& layer : report->bodyLayers) {
                const NodeId owner = controlFlowNodeOf(graph, layer.body);
                if (owner == kNoId) continue;  // of another model's bodies
                const size_t order =
                    bodyOrder.try_emplace(layer.body + layer.node + '\n' + layer.output, bodyOrder.size() + 1)
                        .first->second;
                Row& row = rows[{owner, order, kNoId}];
                row.node = owner;
                row.name = QString::fromStdString(layer.body + layer.node);
                row.op = QString::fromStdString(layer.op);
                row.output = QString::fromStdString(layer.output);
                (mode == AnalysisMode::Accumulated ? row.accumulated : row.isolated) =
                    LayerError{owner, kNoId, layer.precision, layer.metrics};
            }
        }
        for (auto& [key, row] : rows) mRows.push_back(std::move(row));
    }
    redraw();
}

double LayerErrorPlot::shownSqnr(const Row& row) const {
    const Series shown = series();
    const double accumulated = shown == Series::Isolated ? std::nan("") : finiteSqnr(row.accumulated);
    const double isolated = shown == Series::Accumulated ? std::nan("") : finiteSqnr(row.isolated);
    return std::isnan(accumulated) ? isolated : std::isnan(isolated) ? accumulated : std::min(accumulated, isolated);
}

void LayerErrorPlot::redraw() {
    // Numbers of another plan must not look current.
    setStaleReason(mDocument ? mDocument->analysisStaleReason() : QString());
    mBars[0] = mBars[1] = 0;
    mShown.clear();
    mMeasured = 0;
    if (mRows.empty()) {
        customPlot()->legend->setVisible(false);
        showPlaceholder(noAnalysisPlaceholder());
        return;
    }
    // Constants and exact layers (FP32 with FP32 inputs) have no error to show: they get no position.
    for (size_t i = 0; i < mRows.size(); ++i)
        if (!std::isnan(shownSqnr(mRows[i]))) mShown.push_back(i);
    mMeasured = static_cast<int>(mShown.size());
    if (mShown.empty()) {
        // Measured, but every layer ran in float (its SQNR is infinite): an empty frame looked broken.
        customPlot()->legend->setVisible(false);
        showPlaceholder(
            tr("No layer of the measured plan runs in INT8: every layer matches FP32 exactly, so there "
               "is no quantization error to show. Set layers to INT8, then Measure Again."));
        return;
    }
    // Worst first (ties in graph order), cut to the worst N, then in the chosen order.
    std::stable_sort(mShown.begin(), mShown.end(),
                     [this](size_t a, size_t b) { return shownSqnr(mRows[a]) < shownSqnr(mRows[b]); });
    if (worstCount() != kAllLayers && static_cast<int>(mShown.size()) > worstCount())
        mShown.resize(static_cast<size_t>(worstCount()));
    if (order() == Order::Graph) std::sort(mShown.begin(), mShown.end());

    clearPlot();
    QCustomPlot* plot = customPlot();
    const Series shown = series();
    const bool both = shown == Series::Both;
    double low = 0.0, high = 1.0;
    for (int s = 0; s < 2; ++s) {
        const bool accumulated = s == 0;
        if (shown == (accumulated ? Series::Isolated : Series::Accumulated)) continue;
        QVector<double> keys, values;
        for (int position = 0; position < positionCount(); ++position) {
            const Row& row = shownRow(position);
            const double sqnr = finiteSqnr(accumulated ? row.accumulated : row.isolated);
            if (std::isnan(sqnr)) continue;
            // Side by side: accumulated left of the position, isolated right of it.
            keys.append(static_cast<double>(position) + (both ? (accumulated ? -0.2 : 0.2) : 0.0));
            values.append(sqnr);
            low = std::min(low, sqnr);
            high = std::max(high, sqnr);
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
    // Short: a narrow dock cuts a longer title at both edges.
    const QString orderText = order() == Order::Graph ? tr("graph order") : tr("worst first");
    plot->xAxis->setLabel(positionCount() < mMeasured
                              ? tr("worst %1 of %2 layers, %3").arg(positionCount()).arg(mMeasured).arg(orderText)
                              : counted(mMeasured, tr("1 layer"), tr("%1 layers")) + QStringLiteral(", ") + orderText);
    plot->legend->setVisible(true);
    showKeyRange(-kKeyMargin, static_cast<double>(positionCount()) - 1.0 + kKeyMargin);
    plot->yAxis->setRange(low < 0.0 ? low * 1.1 : 0.0, high * 1.1);
    plot->replot();
}

void LayerErrorPlot::labelPositions() {
    auto ticker = customPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) return;
    ticker->clear();
    QCustomPlot* plot = customPlot();
    // The whole label where the axis is tall enough; cut, it read "SQNR dB, higher is bette" in a short dock.
    const QString label = tr("SQNR dB, higher is better");
    const int axisHeight = plot->axisRect()->height() > 0 ? plot->axisRect()->height() : plot->height();
    plot->yAxis->setLabel(
        QFontMetrics(plot->yAxis->labelFont()).horizontalAdvance(label) <= axisHeight ? label : tr("SQNR dB"));
    if (mShown.empty()) return;
    const QFontMetrics metrics(plot->xAxis->tickLabelFont());
    // The axis rect of the last layout (the plot's width before the first one).
    const int width = plot->axisRect()->width() > 0 ? plot->axisRect()->width() : plot->width();
    const double pixelsPerPosition = width / std::max(1e-9, plot->xAxis->range().size());
    // Upright names stand a line height apart; closer, every k-th one is named.
    const int every = std::max(1, static_cast<int>(std::ceil(1.2 * metrics.height() / pixelsPerPosition)));
    // Exporters write long paths (/features/denseblock3/denselayer12/conv2/Conv): the end tells the layer apart, and
    // a quarter of the plot's height is left to the names so that the bars keep theirs.
    const int nameWidth = std::clamp(plot->height() / 4, 48, 200);
    for (int position = 0; position < positionCount(); position += every)
        ticker->addTick(position, metrics.elidedText(shownRow(position).name, Qt::ElideLeft, nameWidth));
}

QString LayerErrorPlot::tickLabelAt(int position) const {
    const auto ticker = customPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? ticker->ticks().value(static_cast<double>(position)) : QString();
}

int LayerErrorPlot::positionAt(const QPointF& pixel) const {
    const QCustomPlot* plot = customPlot();
    const QRect rect = plot->axisRect()->rect();
    // Over the bars or over the names below them.
    if (mShown.empty() || pixel.x() < rect.left() || pixel.x() > rect.right() || pixel.y() < rect.top()) return -1;
    const double key = plot->xAxis->pixelToCoord(pixel.x());
    const long position = std::lround(key);
    if (position < 0 || position >= positionCount() || std::abs(key - static_cast<double>(position)) > 0.45) return -1;
    return static_cast<int>(position);
}

QString LayerErrorPlot::toolTipFor(int position) const {
    if (position < 0 || position >= positionCount()) return {};
    const Row& row = shownRow(position);
    const LayerError& any = row.accumulated ? *row.accumulated : *row.isolated;
    return tr("%1 (%2), %3, output %4")
               .arg(row.name, row.op, QString::fromUtf8(precisionName(any.precision)).toUpper(), row.output) +
           metricsText("accumulated", row.accumulated) + metricsText("isolated", row.isolated) +
           tr("\nClick to select the layer.");
}

void LayerErrorPlot::onMouseMove(QMouseEvent* event) {
    showHoverTip(event, toolTipFor(positionAt(event->position())));
}

void LayerErrorPlot::onMousePress(QMouseEvent* event) {
    mPressPos = event->position();
}

void LayerErrorPlot::onMouseRelease(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || (event->position() - mPressPos).manhattanLength() > 4.0) return;
    const int position = positionAt(event->position());
    if (position >= 0) emit nodeClicked(shownRow(position).node);
}

}  // namespace ql::ui
