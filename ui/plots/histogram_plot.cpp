#include "ui/plots/histogram_plot.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <algorithm>
#include <cmath>

#include "ui/model_document.h"

namespace ql::ui {

namespace {

struct MethodLine {
    CalibrationMethod method;
    QString label;
    float amax;
};

// One line per method, with a fixed colour per method so the user learns them.
std::vector<MethodLine> methodLines(const TensorRange& range, const CalibrationConfig& config) {
    if (!range.amaxByMethod) {
        return {{range.method, QString::fromStdString(calibrationMethodName(range.method, config)), range.amax}};
    }
    const MethodAmax& m = *range.amaxByMethod;
    return {{CalibrationMethod::MinMax, QStringLiteral("minmax"), m.minmax},
            {CalibrationMethod::Percentile, QStringLiteral("percentile %1").arg(config.percentile), m.percentile},
            {CalibrationMethod::Entropy, QStringLiteral("entropy"), m.entropy},
            {CalibrationMethod::Mse, QStringLiteral("mse"), m.mse}};
}

int methodColorIndex(CalibrationMethod method) {
    switch (method) {
        case CalibrationMethod::MinMax:
            return 3;
        case CalibrationMethod::Percentile:
            return 4;
        case CalibrationMethod::Entropy:
            return 2;
        case CalibrationMethod::Mse:
            return 1;
        case CalibrationMethod::Auto:
            break;
    }
    return 7;
}

const TensorRange* findRange(const CalibrationResult& calibration, const QString& name) {
    const std::string wanted = name.toStdString();
    for (const TensorRange& r : calibration.activations)
        if (r.name == wanted) return &r;
    return nullptr;
}

}  // namespace

HistogramPlot::HistogramPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Activation histogram"));
    mTensor = new QComboBox(this);
    mTensor->setEditable(true);
    mTensor->setInsertPolicy(QComboBox::NoInsert);
    mTensor->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mTensor->setMinimumContentsLength(18);
    mTensor->completer()->setFilterMode(Qt::MatchContains);
    mTensor->completer()->setCompletionMode(QCompleter::PopupCompletion);
    mTensor->setToolTip(tr("The tensor whose histogram is shown; selecting a node in the graph shows its output"));
    mLog = new QCheckBox(tr("Log scale"), this);
    controls()->addWidget(new QLabel(tr("Tensor:"), this));
    controls()->addWidget(mTensor, 1);
    controls()->addWidget(mLog);
    connect(mTensor, &QComboBox::currentIndexChanged, this, &HistogramPlot::redraw);
    connect(mLog, &QCheckBox::toggled, this, &HistogramPlot::redraw);
    customPlot()->yAxis->setLabel(tr("count"));
    showPlaceholder(tr("No calibration yet.\nQuantize > Calibrate..., or drop a .npy file or folder here."));
}

void HistogramPlot::setDocument(ModelDocument* document) {
    if (mDocument) disconnect(mDocument, nullptr, this, nullptr);
    mDocument = document;
    if (document) connect(document, &ModelDocument::calibrationChanged, this, &HistogramPlot::rebuildTensorList);
    rebuildTensorList();
}

void HistogramPlot::rebuildTensorList() {
    const QString previous = currentTensor();
    const QSignalBlocker block(mTensor);
    mTensor->clear();
    const auto calibration = mDocument ? mDocument->calibration() : nullptr;
    if (calibration)
        for (const TensorRange& r : calibration->activations) mTensor->addItem(QString::fromStdString(r.name));
    const int keep = mTensor->findText(previous);
    mTensor->setCurrentIndex(keep >= 0 ? keep : 0);
    redraw();
}

void HistogramPlot::showTensor(const QString& name) {
    const int index = mTensor->findText(name);
    if (index >= 0) mTensor->setCurrentIndex(index);
}

void HistogramPlot::showNode(NodeId node) {
    if (!mDocument || !mDocument->model() || !mDocument->calibration()) return;
    const Graph& graph = mDocument->model()->graph();
    if (node < 0 || static_cast<size_t>(node) >= graph.nodes().size()) return;
    for (ValueId out : graph.node(node).outputs) {
        if (out == kNoId) continue;
        const int index = mTensor->findText(QString::fromStdString(graph.value(out).name));
        if (index >= 0) {
            mTensor->setCurrentIndex(index);
            return;
        }
    }
}

QString HistogramPlot::currentTensor() const {
    return mTensor->currentIndex() >= 0 ? mTensor->itemText(mTensor->currentIndex()) : QString();
}

void HistogramPlot::setLogScale(bool logScale) {
    mLog->setChecked(logScale);
}

bool HistogramPlot::logScale() const {
    return mLog->isChecked();
}

void HistogramPlot::redraw() {
    const auto calibration = mDocument ? mDocument->calibration() : nullptr;
    if (!calibration) {
        showPlaceholder(tr("No calibration yet.\nQuantize > Calibrate..., or drop a .npy file or folder here."));
        return;
    }
    const TensorRange* range = findRange(*calibration, currentTensor());
    if (!range) {
        showPlaceholder(tr("Choose a tensor, or select a node in the graph."));
        return;
    }
    clearPlot();
    drawHistogram(*range);
    drawMethodLines(*range);
    customPlot()->replot();
}

void HistogramPlot::drawHistogram(const TensorRange& range) {
    QCustomPlot* plot = customPlot();
    const Histogram& h = range.histogram;
    const bool log = logScale();
    QVector<double> keys, counts;
    double peak = 0.0;
    for (size_t i = 0; i < h.bins(); ++i) {
        const double count = static_cast<double>(h.counts[i]);
        keys.append(h.binEdge(i) + 0.5 * h.binWidth());
        // A log axis has no 0: empty bins become gaps.
        counts.append(log && count == 0.0 ? std::nan("") : count);
        peak = std::max(peak, count);
    }
    auto* graph = plot->addGraph();
    graph->setName(tr("histogram"));
    graph->setLineStyle(QCPGraph::lsStepCenter);
    QColor color = seriesColor(0);
    graph->setPen(QPen(color, 1));
    color.setAlpha(110);
    graph->setBrush(color);
    graph->setData(keys, counts, true);

    float widest = std::max(std::abs(range.min), std::abs(range.max));
    for (const MethodLine& line : methodLines(range, mDocument->calibration()->config))
        widest = std::max(widest, line.amax);
    const double pad = 0.04 * std::max(1e-6, static_cast<double>(widest));
    plot->xAxis->setRange(std::min(0.0, static_cast<double>(range.min)) - pad,
                          std::max<double>(range.max, widest) + pad);
    plot->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        plot->yAxis->setRange(0.5, std::max(10.0, peak * 3.0));
    } else {
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->yAxis->setRange(0.0, std::max(1.0, peak * 1.08));
    }
    QString label = tr("value of %1   (min %2, max %3)")
                        .arg(QString::fromStdString(range.name))
                        .arg(static_cast<double>(range.min), 0, 'g', 4)
                        .arg(static_cast<double>(range.max), 0, 'g', 4);
    if (range.nonFinite > 0) label += tr(", %n NaN/Inf ignored", nullptr, static_cast<int>(range.nonFinite));
    if (h.bins() == 0) label += tr("; no histogram stored");
    // A tensor the fusion hides is counted on fewer samples (CalibrationOptions::fullStatistics): say so.
    if (range.samples > 0)
        label += QStringLiteral("\n") + tr("counted on %1 of the %2 samples: fused into its activation")
                                            .arg(range.samples)
                                            .arg(mDocument->calibration()->samples);
    plot->xAxis->setLabel(label);
}

void HistogramPlot::drawMethodLines(const TensorRange& range) {
    QCustomPlot* plot = customPlot();
    const CalibrationConfig& config = mDocument->calibration()->config;
    std::vector<MethodLine> lines = methodLines(range, config);
    // Labels stacked from the top in amax order, so close lines do not print over each other.
    std::stable_sort(lines.begin(), lines.end(),
                     [](const MethodLine& a, const MethodLine& b) { return a.amax < b.amax; });
    const QCPRange x = plot->xAxis->range();
    QColor labelBackground = palette().color(QPalette::Base);
    labelBackground.setAlpha(210);
    for (size_t k = 0; k < lines.size(); ++k) {
        const MethodLine& line = lines[k];
        const bool chosen = line.method == range.method;
        const QColor color = seriesColor(methodColorIndex(line.method));
        auto* item = new QCPItemStraightLine(plot);
        for (QCPItemPosition* p : {item->point1, item->point2}) {
            p->setTypeX(QCPItemPosition::ptPlotCoords);
            p->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        item->point1->setCoords(line.amax, 0.0);
        item->point2->setCoords(line.amax, 1.0);
        item->setPen(chosen ? QPen(color, 2.5) : QPen(color, 1.5, Qt::DashLine));

        auto* text = new QCPItemText(plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(line.amax, 0.03 + 0.09 * static_cast<double>(k));
        // Right of the line, or left of it near the right edge.
        const bool flip = line.amax > x.lower + 0.7 * x.size();
        text->setPositionAlignment((flip ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        text->setPadding(QMargins(3, 1, 3, 1));
        text->setText(QStringLiteral("%1%2 %3").arg(chosen ? QStringLiteral("\u25B6 ") : QString(), line.label,
                                                    QString::number(static_cast<double>(line.amax), 'g', 4)));
        text->setColor(textColor());
        text->setBrush(labelBackground);
        text->setPen(QPen(color));
        QFont font = this->font();
        font.setBold(chosen);
        text->setFont(font);
    }
}

}  // namespace ql::ui
