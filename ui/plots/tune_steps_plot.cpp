#include "ui/plots/tune_steps_plot.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ql::ui {

namespace {

// The markers of a few dozen steps; past that, as wide as a step's room but never below a readable dot.
constexpr double kLargestMarker = 9.0, kSmallestMarker = 3.0;

QCPGraph* addPoints(QCustomPlot* plot, const QString& name, QCPScatterStyle style) {
    auto* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    return graph;
}

}  // namespace

QString tuneValueAxisLabel(const TuneTarget& target) {
    switch (target.kind()) {
        case TuneTarget::Kind::AccuracyDrop:
            return QObject::tr("top-1 accuracy drop vs FP32 (points, lower is better)");
        case TuneTarget::Kind::Top1Agreement:
            return QObject::tr("top-1 agreement with FP32 (%)");
        case TuneTarget::Kind::OutputSqnr:
            return QObject::tr("output SQNR vs FP32 (dB)");
        case TuneTarget::Kind::Metric:
            return QObject::tr("your metric");
        case TuneTarget::Kind::MetricDrop:
            return QObject::tr("your metric's drop vs FP32");
    }
    return {};
}

TuneStepsPlot::TuneStepsPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Tune steps"));
    QCustomPlot* plot = customPlot();
    plot->setMouseTracking(true);
    plot->xAxis->setLabel(tr("step (hover for what it tried)"));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(ticker);
    plot->legend->setVisible(true);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    connect(plot, &QCustomPlot::beforeReplot, this, &TuneStepsPlot::sizeMarkers);
    connect(plot, &QCustomPlot::mouseMove, this, &TuneStepsPlot::onMouseMove);
    clear();
}

void TuneStepsPlot::setSteps(std::vector<TuneStepRow> steps, const TuneTarget& target) {
    mSteps = std::move(steps);
    mTarget = target;
    redraw();
}

void TuneStepsPlot::clear() {
    mSteps.clear();
    mKept = mRejected = 0;
    customPlot()->legend->setVisible(false);
    showPlaceholder(tr("No tune run yet."));
}

double TuneStepsPlot::targetLineValue() const {
    return mSteps.empty() ? std::numeric_limits<double>::quiet_NaN() : mTarget.threshold();
}

void TuneStepsPlot::redraw() {
    if (mSteps.empty()) {
        clear();
        return;
    }
    clearPlot();
    QCustomPlot* plot = customPlot();
    // The plan so far: a kept step moves it, a rejected one leaves it where it was.
    QVector<double> pathKeys, pathValues, keptKeys, keptValues, rejectedKeys, rejectedValues;
    double current = mSteps.front().value;
    double low = mTarget.threshold(), high = mTarget.threshold();
    for (const TuneStepRow& step : mSteps) {
        const double x = step.number;
        if (step.kept) current = step.value;
        pathKeys.append(x);
        pathValues.append(current);
        (step.kept ? keptKeys : rejectedKeys).append(x);
        (step.kept ? keptValues : rejectedValues).append(step.value);
        low = std::min(low, step.value);
        high = std::max(high, step.value);
    }
    const QColor text = textColor();
    auto* path = plot->addGraph();
    path->setName(tr("plan so far"));
    path->setLineStyle(QCPGraph::lsStepLeft);
    path->setPen(QPen(seriesColor(0), 2));
    path->setData(pathKeys, pathValues, true);
    const QColor keptColor = seriesColor(2), rejectedColor = seriesColor(3);
    addPoints(plot, tr("kept"), QCPScatterStyle(QCPScatterStyle::ssDisc, keptColor, keptColor, kLargestMarker))
        ->setData(keptKeys, keptValues, true);
    addPoints(plot, tr("rejected"),
              QCPScatterStyle(QCPScatterStyle::ssCross, QPen(rejectedColor, 2), Qt::NoBrush, kLargestMarker))
        ->setData(rejectedKeys, rejectedValues, true);
    mKept = static_cast<int>(keptKeys.size());
    mRejected = static_cast<int>(rejectedKeys.size());

    auto* target = new QCPItemStraightLine(plot);
    target->point1->setCoords(0.0, mTarget.threshold());
    target->point2->setCoords(1.0, mTarget.threshold());
    target->setPen(QPen(text, 1.5, Qt::DashLine));
    auto* label = new QCPItemText(plot);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.01, mTarget.threshold());
    label->setPositionAlignment(Qt::AlignLeft | (mTarget.lowerIsBetter() ? Qt::AlignTop : Qt::AlignBottom));
    label->setText(tr("target: %1").arg(QString::fromStdString(mTarget.text())));
    label->setColor(text);

    const double span = std::max(high - low, 1e-3 * std::max(1.0, std::abs(high)));
    showKeyRange(0.4, static_cast<double>(mSteps.size()) + 0.6);
    plot->yAxis->setRange(low - 0.25 * span, high + 0.25 * span);
    plot->yAxis->setLabel(tuneValueAxisLabel(mTarget));
    plot->legend->setVisible(true);
    plot->replot();
}

double TuneStepsPlot::markerSize() const {
    const QCustomPlot* plot = customPlot();
    const int width = plot->axisRect()->width() > 0 ? plot->axisRect()->width() : plot->width();
    const double pixelsPerStep = width / std::max(1e-9, plot->xAxis->range().size());
    return std::clamp(0.8 * pixelsPerStep, kSmallestMarker, kLargestMarker);
}

void TuneStepsPlot::sizeMarkers() {
    const double size = markerSize();
    QCustomPlot* plot = customPlot();
    // The graphs after the line of the plan so far: kept dots, rejected crosses.
    for (int i = 1; i < plot->graphCount(); ++i) {
        QCPScatterStyle style = plot->graph(i)->scatterStyle();
        style.setSize(size);
        plot->graph(i)->setScatterStyle(style);
    }
}

int TuneStepsPlot::stepAt(const QPointF& pixel) const {
    const QCustomPlot* plot = customPlot();
    if (mSteps.empty() || !plot->axisRect()->rect().contains(pixel.toPoint())) return -1;
    const long number = std::lround(plot->xAxis->pixelToCoord(pixel.x()));
    return number >= 1 && number <= static_cast<long>(mSteps.size()) ? static_cast<int>(number - 1) : -1;
}

QString TuneStepsPlot::toolTipFor(int step) const {
    if (step < 0 || static_cast<size_t>(step) >= mSteps.size()) return {};
    const TuneStepRow& s = mSteps[static_cast<size_t>(step)];
    QString tip = tr("Step %1: %2").arg(s.number).arg(s.actionText);
    if (!s.layer.isEmpty()) tip += QStringLiteral(" ") + s.layer;
    if (!s.change.isEmpty()) tip += QStringLiteral(": ") + s.change;
    tip += QStringLiteral("\n%1 = %2 on %3 samples, %4")
               .arg(QString::fromStdString(mTarget.name()), tuneValueText(mTarget, s.value))
               .arg(s.samples)
               .arg(s.kept ? tr("kept") : tr("rejected"));
    if (!s.why.isEmpty()) tip += QStringLiteral("\n") + s.why;
    return tip;
}

void TuneStepsPlot::onMouseMove(QMouseEvent* event) {
    showHoverTip(event, toolTipFor(stepAt(event->position())));
}

}  // namespace ql::ui
