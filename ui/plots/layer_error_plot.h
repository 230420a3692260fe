#pragma once
// Per-layer SQNR (dB, higher is better) along the depth of the network (graph order), from the document's
// analyses: accumulated (the whole plan; a layer's error includes everything upstream) and isolated (each
// layer alone), side by side or one of them. Hovering a bar shows the node and its metrics; clicking it
// emits nodeClicked (the window selects the node in the graph). Exact layers (infinite SQNR) have no bar.
// Once the plan differs from the one the analysis measured, a banner says the numbers are stale.
#include <QPointer>
#include <optional>
#include <vector>

#include "core/quant/analysis.h"
#include "ui/plots/plot_widget.h"

class QComboBox;
class QLabel;
class QMouseEvent;

namespace ql::ui {

class ModelDocument;

class LayerErrorPlot : public PlotWidget {
    Q_OBJECT
public:
    enum class Series { Both, Accumulated, Isolated };

    explicit LayerErrorPlot(QWidget* parent = nullptr);

    void setDocument(ModelDocument* document);
    void setSeries(Series series);
    Series series() const;

    // One position per analysed node output, in graph order.
    int positionCount() const { return static_cast<int>(mRows.size()); }
    NodeId nodeAt(int position) const;
    // The bars drawn for a mode (finite SQNR only).
    int barCount(AnalysisMode mode) const;
    // The position whose bars are under `pixel` of the plot widget, or -1.
    int positionAt(const QPointF& pixel) const;
    QString toolTipFor(int position) const;
    // The analysis measured another plan than the document's (the banner is shown).

signals:
    void nodeClicked(ql::NodeId node);

private:
    struct Row {
        NodeId node = kNoId;
        ValueId output = kNoId;
        std::optional<LayerError> accumulated, isolated;
    };

    void rebuild();
    void redraw();
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);

    QPointer<ModelDocument> mDocument;
    QComboBox* mSeries;
    std::vector<Row> mRows;
    int mBars[2] = {0, 0};  // accumulated, isolated
    QPointF mPressPos;      // a click, not a drag of the range, selects
};

}  // namespace ql::ui
