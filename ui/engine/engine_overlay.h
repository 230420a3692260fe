#pragma once
// How the engine report is painted on the graph: the fill of each box by the precision the engine ran the node in,
// or by its time (heat, on a log scale: the slowest node red), a dashed ring on the nodes the engine ran otherwise than
// planned, and the legend's key for the fills. The outline keeps showing the plan's effective precision, so planned
// (outline) and built (fill) are seen together.
#include <QColor>
#include <QString>

#include "core/engine/engine_report.h"
#include "core/model/graph.h"

namespace ql::ui {

class GraphView;
class ModelDocument;
struct EngineRun;

// PredictedGain paints the latency prediction instead (prediction_overlay.h): it needs a GPU, not a report.
enum class NodeColoring { OpFamily, EnginePrecision, EngineTime, PredictedGain };

QString nodeColoringName(NodeColoring coloring);  // "Op family", "Engine precision", ..., "Predicted INT8 gain"

QColor enginePrecisionFill(EnginePrecision precision);
QColor noLayerFill();
// 0..1 on the heat scale: dark blue, through amber, to red.
QColor heatColor(double fraction);

// Where a node's time falls on the heat scale: logarithmic from the fastest to the slowest timed node, so times
// that span orders of magnitude (a few heavy convolutions, many light layers) spread over the colours instead of
// all but the slowest looking cold; the legend names the times at its keys, in ms.
struct HeatScale {
    double fastestMs = 0.0, slowestMs = 0.0;  // of the nodes with a time > 0
    bool isEmpty() const { return slowestMs <= 0.0; }
    double fraction(double ms) const;  // 0 at (or below) the fastest, 1 at the slowest
    double msAt(double fraction) const;
};
HeatScale heatScaleOf(const EngineRun& run);

// One line about the node's engine layer for tool tips: "Engine: INT8, 0.0042 ms (9.9%) in layer ...".
QString engineNodeSummary(const EngineRun& run, NodeId node);

// Paints `document`'s engine report (or its latency prediction) on `view` as `coloring` says; OpFamily, or no
// report, clears it.
void paintEngineOverlay(GraphView& view, const ModelDocument& document, NodeColoring coloring);

}  // namespace ql::ui
