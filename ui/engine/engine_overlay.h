#pragma once
// How the engine report is painted on the graph: the fill of each box by the precision the engine ran the node in,
// or by its time (heat: the slowest node red), a dashed ring on the nodes the engine ran otherwise than planned,
// and the legend's key for the fills. The outline keeps showing the plan's effective precision, so planned
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
// `fraction` of the slowest node's time, 0..1: dark blue, through amber, to red.
QColor heatColor(double fraction);

// One line about the node's engine layer for tool tips: "Engine: INT8, 0.0042 ms (9.9%) in layer ...".
QString engineNodeSummary(const EngineRun& run, NodeId node);

// Paints `document`'s engine report (or its latency prediction) on `view` as `coloring` says; OpFamily, or no
// report, clears it.
void paintEngineOverlay(GraphView& view, const ModelDocument& document, NodeColoring coloring);

}  // namespace ql::ui
