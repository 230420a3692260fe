#pragma once
// FP32 against quantized values of one graph output, chosen in the controls row (every float output the analysis
// compared; a capped uniform sample kept by the analysis, OutputError::pairs), with the identity line and the metrics
// that fit the output's kind (output_kind.h): top-1 agreement and accuracy for a class vector; SQNR, cosine and max
// error (per channel group for a detector's first output) otherwise. The note above the plot says which.
// Uses the accumulated analysis (the whole plan), or the isolated one when it is the only one: either one's outputs
// are the whole plan's.
#include <QPointer>
#include <QStringList>
#include <memory>

#include "core/quant/analysis.h"
#include "ui/plots/plot_widget.h"

class QComboBox;

namespace ql::ui {

class ModelDocument;

class OutputScatterPlot : public PlotWidget {
    Q_OBJECT
public:
    explicit OutputScatterPlot(QWidget* parent = nullptr);

    void setDocument(ModelDocument* document);
    int pointCount() const { return mPoints; }
    QString summaryText() const { return mSummary; }

    // The outputs the selector lists (graph order) and the one shown; selecting an unknown name does nothing.
    QStringList outputNames() const;
    QString currentOutput() const;
    void selectOutput(const QString& name);

private:
    void rebuild();
    void redraw();
    void updateStale();

    QPointer<ModelDocument> mDocument;
    QComboBox* mOutput;
    std::shared_ptr<const AnalysisReport> mReport;
    int mPoints = 0;
    QString mSummary;
};

}  // namespace ql::ui
