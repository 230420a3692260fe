#pragma once
// The result page of the tune dialog: the summary (target met or not, layers kept out of INT8, INT8 share of the
// MACs, trials, time), the target's value along the steps (TuneStepsPlot) and the steps as a table.
#include <QWidget>
#include <memory>

#include "core/model/graph.h"
#include "core/quant/tuning.h"

class QLabel;
class QTableView;

namespace ql::ui {

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

private:
    QLabel* mSummary;
    QString mSummaryText;
    TuneStepsPlot* mPlot;
    TuneStepsModel* mSteps;
    QTableView* mTable;
};

}  // namespace ql::ui
