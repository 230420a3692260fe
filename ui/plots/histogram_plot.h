#pragma once
// The activation histogram of one tensor from the document's calibration (the selected node's output, or a
// tensor chosen in the combo), with one vertical line per calibration method at the amax it gives
// (TensorRange::amaxByMethod), labelled; the method the calibration used is drawn bold. Log-scale option.
#include <QPointer>

#include "core/model/graph.h"
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

private:
    void rebuildTensorList();
    void redraw();
    void drawHistogram(const TensorRange& range);
    void drawMethodLines(const TensorRange& range);

    QPointer<ModelDocument> mDocument;
    QComboBox* mTensor;
    QCheckBox* mLog;
};

}  // namespace ql::ui
