#pragma once
// The target's value after every step of a tune run (Quantize > Tune... result): kept steps as filled dots on
// the line of the plan so far, rejected ones as crosses off it, the target as a dashed horizontal line.
// Hovering a step shows what it tried and why. Past a few dozen steps the wheel zooms and a drag pans along the
// steps (within them), the markers shrink to the room a step has, and the step ticks thin out.
#include <vector>

#include "core/quant/tuning_target.h"
#include "ui/plots/plot_widget.h"
#include "ui/tuning/tune_report_text.h"

class QMouseEvent;

namespace ql::ui {

class TuneStepsPlot : public PlotWidget {
    Q_OBJECT
public:
    explicit TuneStepsPlot(QWidget* parent = nullptr);

    void setSteps(std::vector<TuneStepRow> steps, const TuneTarget& target);
    void clear();

    int keptPointCount() const { return mKept; }
    // The diameter of the kept and rejected markers at the current zoom, in pixels.
    double markerSize() const;
    int rejectedPointCount() const { return mRejected; }
    // The y of the target line, NaN when none is drawn.
    double targetLineValue() const;
    // The step under `pixel` of the plot widget (index into the steps), or -1.
    int stepAt(const QPointF& pixel) const;
    QString toolTipFor(int step) const;

private:
    void redraw();
    // Before a replot (zoom, pan, resize): markers no wider than a step's room, so that neighbours stay apart.
    void sizeMarkers();
    void onMouseMove(QMouseEvent* event);

    std::vector<TuneStepRow> mSteps;
    TuneTarget mTarget;
    int mKept = 0, mRejected = 0;
};

// The axis title of a target's value: "top-1 agreement with FP32 (%)".
QString tuneValueAxisLabel(const TuneTarget& target);

}  // namespace ql::ui
