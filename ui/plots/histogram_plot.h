#pragma once
// The activation histogram of one tensor from the document's calibration (the selected node's output, or a
// tensor chosen in the combo), with one vertical line per calibration method at the amax it gives
// (TensorRange::amaxByMethod), labelled with the share of values it clips and the SQNR it is expected to give
// (the calibration's diagnosis, for tensors the plan quantizes). The method in use (the plan's override, else
// the calibration's choice for the tensor) is drawn bold. "Range from" overrides the method of the tensor: an
// undoable plan edit (ModelDocument::setTensorMethod). Log-scale option.
#include <QPointer>
#include <QStringList>
#include <optional>

#include "core/model/graph.h"
#include "core/quant/calibrator.h"
#include "ui/plots/plot_widget.h"

class QCheckBox;
class QComboBox;

namespace ql {
struct TensorRange;
}

namespace ql::ui {

class ModelDocument;

class HistogramPlot : public PlotWidget {
    Q_OBJECT
public:
    explicit HistogramPlot(QWidget* parent = nullptr);

    void setDocument(ModelDocument* document);
    // Shows the tensor named `name` (when the calibration has it).
    void showTensor(const QString& name);
    // Shows the first output of `node` that has a calibrated range.
    void showNode(ql::NodeId node);
    QString currentTensor() const;

    void setLogScale(bool logScale);
    bool logScale() const;

    // The method whose amax the current tensor uses, and whether the plan chose it (an override).
    std::optional<CalibrationMethod> methodInUse(bool* fromPlan = nullptr) const;
    // Overrides the current tensor's method (nullopt: the calibration's own), as the "Range from" combo does.
    void chooseMethod(std::optional<CalibrationMethod> method);
    // The label of each method line, in the order drawn (for tests and the snapshot tool).
    QStringList lineLabels() const;
    // Where each label is drawn, in the plot's pixels (after a replot), in the order drawn.
    QList<QRectF> lineLabelRects() const;

private:
    void rebuildTensorList();
    void redraw();
    void drawHistogram(const TensorRange& range);
    void drawMethodLines(const TensorRange& range);
    // Each line's label right of it, else left of it, else against the plot's right edge: whichever shows it whole
    // at the current size (before every replot; a fixed share of the range cut "entropy 5.25 · clips ..." short).
    void placeLineLabels();
    // The x caption with the tensor's name shortened in the middle to the plot's width (before every replot).
    void fitAxisCaption();
    QString notesOf(const TensorRange& range) const;
    void syncMethodCombo(const TensorRange* range);
    void methodActivated(int index);

    QPointer<ModelDocument> mDocument;
    QComboBox* mTensor;
    QComboBox* mMethod;
    QCheckBox* mLog;
    // The x axis's caption: the tensor (elided to the width by fitAxisCaption) and its range.
    QString mAxisTensor, mAxisFacts;
};

}  // namespace ql::ui
