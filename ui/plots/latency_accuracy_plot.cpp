#include "ui/plots/latency_accuracy_plot.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

#include "ui/plots/tune_steps_plot.h"

namespace ql::ui {

namespace {

constexpr double kHoverPixels = 8.0;

QCPGraph* addPoints(QCustomPlot* plot, const QString& name, const QCPScatterStyle& style) {
    auto* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    return graph;
}

// `alignment`: which side of the point the label sits on (the three labelled plans may share a point).
QCPItemText* addLabel(QCustomPlot* plot, double x, double y, const QString& text, const QColor& color,
                      Qt::Alignment alignment) {
    auto* label = new QCPItemText(plot);
    label->position->setCoords(x, y);
    label->setPositionAlignment(alignment);
    label->setPadding(QMargins(8, 4, 8, 4));
    label->setText(text);
    label->setColor(color);
    return label;
}

}  // namespace

LatencyAccuracyPlot::LatencyAccuracyPlot(QWidget* parent) : PlotWidget(parent) {
    setWindowTitle(tr("Latency vs accuracy"));
    QCustomPlot* plot = customPlot();
    plot->setMouseTracking(true);
    plot->legend->setVisible(true);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->legend->setFont(small);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    connect(plot, &QCustomPlot::mouseMove, this, &LatencyAccuracyPlot::onMouseMove);
    clear();
}

void LatencyAccuracyPlot::clear() {
    mSteps.clear();
    mTimed = 0;
    mChosen.reset();
    customPlot()->legend->setVisible(false);
    showPlaceholder(tr("No latency tune yet: choose the latency objective and a GPU."));
}

void LatencyAccuracyPlot::setPlans(std::vector<TuneStepRow> steps, const TuneTarget& target,
                                   const LatencyPlans& plans) {
    mSteps = std::move(steps);
    mTarget = target;
    clearPlot();
    QCustomPlot* plot = customPlot();
    QVector<double> keptMs, keptValues, rejectedMs, rejectedValues;
    double lowMs = std::min({plans.startMs, plans.fp16Ms, plans.chosenMs}),
           highMs = std::max({plans.startMs, plans.fp16Ms, plans.chosenMs});
    double low = std::min(target.threshold(), plans.chosenValue),
           high = std::max(target.threshold(), plans.chosenValue);
    for (const TuneStepRow& step : mSteps) {
        if (!step.predictedMs) continue;
        (step.kept ? keptMs : rejectedMs).append(*step.predictedMs);
        (step.kept ? keptValues : rejectedValues).append(step.value);
        lowMs = std::min(lowMs, *step.predictedMs);
        highMs = std::max(highMs, *step.predictedMs);
        low = std::min(low, step.value);
        high = std::max(high, step.value);
    }
    mTimed = static_cast<int>(keptMs.size() + rejectedMs.size());
    const QColor keptColor = seriesColor(2), rejectedColor = seriesColor(3), chosenColor = seriesColor(0);
    addPoints(plot, tr("kept"), QCPScatterStyle(QCPScatterStyle::ssDisc, keptColor, keptColor, 8))
        ->setData(keptMs, keptValues);
    addPoints(plot, tr("rejected"), QCPScatterStyle(QCPScatterStyle::ssCross, QPen(rejectedColor, 2), Qt::NoBrush, 9))
        ->setData(rejectedMs, rejectedValues);
    auto* chosen = addPoints(plot, tr("chosen plan"),
                             QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(chosenColor, 3), Qt::NoBrush, 18));
    chosen->setData({plans.chosenMs}, {plans.chosenValue});
    mChosen = QPointF(plans.chosenMs, plans.chosenValue);

    const QColor text = textColor();
    // The start plan is the baseline step; the all-FP16 plan has a value when the tune evaluated it.
    const double startValue = mSteps.empty() ? plans.chosenValue : mSteps.front().value;
    addPoints(plot, tr("start plan"), QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(text, 2), Qt::NoBrush, 10))
        ->setData({plans.startMs}, {startValue});
    addLabel(plot, plans.startMs, startValue, tr("start plan"), text, Qt::AlignRight | Qt::AlignBottom);
    if (plans.fp16Value) {
        addPoints(plot, tr("all FP16"), QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(text, 2), Qt::NoBrush, 9))
            ->setData({plans.fp16Ms}, {*plans.fp16Value});
        addLabel(plot, plans.fp16Ms, *plans.fp16Value, tr("all FP16"), text, Qt::AlignLeft | Qt::AlignBottom);
        low = std::min(low, *plans.fp16Value);
        high = std::max(high, *plans.fp16Value);
    }
    addLabel(plot, plans.chosenMs, plans.chosenValue, tr("chosen"), chosenColor, Qt::AlignLeft | Qt::AlignTop)
        ->setFont([&] {
            QFont bold = font();
            bold.setBold(true);
            return bold;
        }());

    auto* line = new QCPItemStraightLine(plot);
    line->point1->setCoords(0.0, target.threshold());
    line->point2->setCoords(1.0, target.threshold());
    line->setPen(QPen(text, 1.5, Qt::DashLine));

    const double spanMs = std::max(highMs - lowMs, 1e-3 * std::max(1e-3, highMs));
    const double span = std::max(high - low, 1e-3 * std::max(1.0, std::abs(high)));
    plot->xAxis->setRange(lowMs - 0.15 * spanMs, highMs + 0.3 * spanMs);
    plot->yAxis->setRange(low - 0.25 * span, high + 0.25 * span);
    plot->xAxis->setLabel(tr("predicted engine time on %1 (ms, an estimate)").arg(plans.gpu));
    plot->yAxis->setLabel(tuneValueAxisLabel(target));
    plot->legend->setVisible(true);
    plot->replot();
}

int LatencyAccuracyPlot::stepAt(const QPointF& pixel) const {
    const QCustomPlot* plot = customPlot();
    int best = -1;
    double bestDistance = kHoverPixels;
    for (size_t i = 0; i < mSteps.size(); ++i) {
        if (!mSteps[i].predictedMs) continue;
        const double dx = plot->xAxis->coordToPixel(*mSteps[i].predictedMs) - pixel.x();
        const double dy = plot->yAxis->coordToPixel(mSteps[i].value) - pixel.y();
        const double distance = std::hypot(dx, dy);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    return best;
}

QString LatencyAccuracyPlot::toolTipFor(int step) const {
    if (step < 0 || static_cast<size_t>(step) >= mSteps.size()) return {};
    const TuneStepRow& s = mSteps[static_cast<size_t>(step)];
    QString tip = tr("Step %1: %2").arg(s.number).arg(s.actionText);
    if (!s.layer.isEmpty()) tip += QStringLiteral(" ") + s.layer;
    if (s.predictedMs)
        tip += tr("\npredicted %1 ms, %2").arg(*s.predictedMs, 0, 'f', 4).arg(tuneValueText(mTarget, s.value));
    tip += s.kept ? tr(", kept") : tr(", rejected");
    if (!s.why.isEmpty()) tip += QStringLiteral("\n") + s.why;
    return tip;
}

void LatencyAccuracyPlot::onMouseMove(QMouseEvent* event) {
    showHoverTip(event, toolTipFor(stepAt(event->position())));
}

}  // namespace ql::ui
