#pragma once
// View > Color Nodes By > Predicted INT8 gain: the fill of each box by what INT8 does to the plan's time in the
// predicted engine (core/engine/plan_prediction.h), region by region: an INT8 layer takes its INT8 island's colour,
// green where the island pays (saves time against all of it in FP16, the reformats at its borders included), red
// where it costs; grey where the layer is float or INT8 changes nothing. A fused layer colours every box of its
// nodes alike; the tool tip gives the numbers, the layer's own and its island's. Stale numbers (a prediction under
// way) are drawn faded.
#include <QColor>

namespace ql::ui {

class GraphView;
class ModelDocument;

QColor int8PaysFill();
QColor int8CostsFill();
QColor neutralGainFill();

// Paints `document`'s latency prediction on `view` (replacing every engine mark); without one, it clears them and
// the legend says to choose a GPU.
void paintPredictionOverlay(GraphView& view, const ModelDocument& document);

}  // namespace ql::ui
