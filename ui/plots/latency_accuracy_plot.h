#pragma once
// The plans a latency tune tried (Quantize > Tune..., objective latency): predicted engine time (an estimate) against
// the target's value, one point per step that was timed (kept steps filled, rejected ones as crosses), the start
// plan and the all-FP16 plan marked and labelled, the chosen plan ringed, and the target as a dashed horizontal line.
// Hovering a point shows the step.
#include <QPointF>
#include <optional>
#include <vector>

#include "core/quant/tuning_target.h"
#include "ui/plots/plot_widget.h"
#include "ui/tuning/tune_report_text.h"

class QMouseEvent;

namespace ql::ui {

// The plans of a latency tune the plot shows besides the steps.
struct LatencyPlans {
    QString gpu;
    double startMs = 0.0;
    double fp16Ms = 0.0;
    std::optional<double> fp16Value;  // the all-FP16 plan's target value, when it was evaluated
    double chosenMs = 0.0;
    double chosenValue = 0.0;
};

class LatencyAccuracyPlot : public PlotWidget {
    Q_OBJECT
public:
    explicit LatencyAccuracyPlot(QWidget* parent = nullptr);

    void setPlans(std::vector<TuneStepRow> steps, const TuneTarget& target, const LatencyPlans& plans);
    void clear();

    int timedPointCount() const { return mTimed; }
    // The chosen plan (ms, value), as ringed; nullopt while nothing is shown.
    std::optional<QPointF> chosenPoint() const { return mChosen; }
    // The timed step nearest to `pixel` of the plot widget within a few pixels (index into the steps), or -1.
    int stepAt(const QPointF& pixel) const;
    QString toolTipFor(int step) const;

private:
    void onMouseMove(QMouseEvent* event);

    std::vector<TuneStepRow> mSteps;
    TuneTarget mTarget;
    int mTimed = 0;
    std::optional<QPointF> mChosen;
};

}  // namespace ql::ui
