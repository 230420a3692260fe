#pragma once
// FP32 against quantized values of the model's first output (a capped uniform sample kept by the analysis,
// AnalysisReport::outputPairs), with the identity line and the metrics that fit the output's kind
// (output_kind.h): top-1 agreement and accuracy for a class vector; SQNR, cosine and max error (per channel group
// for a detector) otherwise. The note above the plot says which.
// Uses the accumulated analysis (the whole plan), or the isolated one when it is the only one.
#include <QPointer>

#include "ui/plots/plot_widget.h"

namespace ql::ui {

class ModelDocument;

class OutputScatterPlot : public PlotWidget {
    Q_OBJECT
public:
    explicit OutputScatterPlot(QWidget* parent = nullptr);

    void setDocument(ModelDocument* document);
    int pointCount() const { return mPoints; }
    QString summaryText() const { return mSummary; }

private:
    void redraw();
    void updateStale();

    QPointer<ModelDocument> mDocument;
    int mPoints = 0;
    QString mSummary;
};

}  // namespace ql::ui
