#pragma once
// Per-layer SQNR (dB, higher is better) from the document's analyses: accumulated (the whole plan; a layer's error
// includes everything upstream) and isolated (each layer alone), side by side or one of them. Only layers with an
// error measured get a position: Constants and exact layers (infinite SQNR) have no bar, and an index that counted
// them spread a 300-layer model over 600 positions. The controls choose the worst N layers (25, 50, 100 or all) and
// their order, graph order (depth) or worst first; the wheel zooms and a drag pans along the layers, within them.
// Layer names label the axis where they fit (every k-th name when zoomed out); hovering a bar or its name shows
// the node and its metrics; clicking it emits nodeClicked (the window selects the node in the graph). The layers of
// If/Loop/Scan bodies (AnalysisReport::bodyLayers) follow their control-flow node in graph order, named by their path
// ("If_0/then_branch/conv"); clicking one selects that node.
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
    enum class Order { Graph, WorstFirst };
    static constexpr int kAllLayers = 0;

    explicit LayerErrorPlot(QWidget* parent = nullptr);

    void setDocument(ModelDocument* document);
    void setSeries(Series series);
    Series series() const;
    void setOrder(Order order);
    Order order() const;
    // How many of the worst layers are shown (one of 25, 50, 100 or kAllLayers).
    void setWorstCount(int count);
    int worstCount() const;

    // The layers with an error measured in the shown series, and the positions drawn (the worst N of them).
    int measuredCount() const { return mMeasured; }
    int positionCount() const { return static_cast<int>(mShown.size()); }
    NodeId nodeAt(int position) const;
    // The bars drawn for a mode (finite SQNR only).
    int barCount(AnalysisMode mode) const;
    // The position whose bar (or axis name) is under `pixel` of the plot widget, or -1.
    int positionAt(const QPointF& pixel) const;
    QString toolTipFor(int position) const;
    // The name under the position on the axis, empty where it is left out so that the names do not overlap.
    QString tickLabelAt(int position) const;

    // What one position shows.
    struct Row {
        NodeId node = kNoId;  // a body layer's: the control-flow node around it (a click selects that)
        // Kept with the row: a new model's planChanged redraws before its analysisChanged rebuilds the rows, and
        // the old rows' ids must not be looked up in the new graph. A body layer is named by its path.
        QString name, op, output;
        std::optional<LayerError> accumulated, isolated;
    };

signals:
    void nodeClicked(ql::NodeId node);

private:
    void rebuild();
    void redraw();
    // The lower SQNR of the shown series, NaN when none of them measured an error for `row`.
    double shownSqnr(const Row& row) const;
    const Row& shownRow(int position) const { return mRows[mShown[static_cast<size_t>(position)]]; }
    // Names every k-th position, k as many as the names need not to overlap at the current zoom, and gives the y
    // axis the label that fits its height (before a replot).
    void labelPositions();
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);

    QPointer<ModelDocument> mDocument;
    QComboBox* mSeries;
    QComboBox* mOrder;
    QComboBox* mWorst;
    std::vector<Row> mRows;      // every analysed node output, in graph order (body layers after their node)
    std::vector<size_t> mShown;  // the rows at positions 0, 1, ...
    int mMeasured = 0;
    int mBars[2] = {0, 0};  // accumulated, isolated
    QPointF mPressPos;      // a click, not a drag of the range, selects
};

}  // namespace ql::ui
