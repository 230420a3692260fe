#pragma once
// The result page of the tune dialog: the summary (target met or not, layers kept out of INT8, INT8 share of the
// MACs, trials, time, and the predicted times of a latency tune), the target's value along the steps
// (TuneStepsPlot) and the steps as a table. A latency tune adds two tabs beside the steps plot: the plans tried as
// predicted time against the target's value (LatencyAccuracyPlot, the chosen one ringed) and each region's
// decision with its reason.
#include <QWidget>
#include <memory>

#include "core/model/graph.h"
#include "core/quant/tuning.h"

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;

namespace ql::ui {

class LatencyAccuracyPlot;
class TuneStepsModel;
class TuneStepsPlot;

class TuneResultWidget : public QWidget {
    Q_OBJECT
public:
    explicit TuneResultWidget(QWidget* parent = nullptr);

    void showReport(const Graph& graph, const TuneReport& report);

    QString summaryText() const;  // plain text
    TuneStepsPlot* plot() const { return mPlot; }
    TuneStepsModel* stepsModel() const { return mSteps; }
    LatencyAccuracyPlot* latencyPlot() const { return mLatencyPlot; }
    QTabWidget* plotTabs() const { return mTabs; }
    // The regions' decisions, one per line; empty unless the report is a latency tune's.
    QString regionsText() const;

private:
    QLabel* mSummary;
    QString mSummaryText;
    TuneStepsPlot* mPlot;
    LatencyAccuracyPlot* mLatencyPlot;
    QPlainTextEdit* mRegions;
    QTabWidget* mTabs;
    TuneStepsModel* mSteps;
    QTableView* mTable;
};

}  // namespace ql::ui
