#pragma once
// How the window words a latency prediction (core/engine/plan_prediction.h), so the precision table, the graph
// overlay and the status bar say the same thing: every number is an estimate and says how far off it was where it
// was checked (estimateNote), and a model whose dims are open says they were counted as 1, as its MACs are.
#include <QString>
#include <optional>

#include "core/engine/plan_prediction.h"

namespace ql::ui {

// "0.0123 ms" style numbers: four decimals, the sign when `signedValue` ("+0.0040").
QString predictedMsText(double ms, bool signedValue = false);
// "±19%": how far off the total was where it was checked (or the fit's error).
QString checkedErrorText(const GpuProfile& profile);
// "T4" (the GPU's name as the table spells it, shortened from its display name where that is long).
QString gpuLabel(const GpuSpec& gpu);

// "Predicted on T4: plan 0.231 ms · all-FP16 0.239 · all-INT8 0.219 (estimate, ±19%)", with "(updating...)" while
// `stale`.
QString predictionStatusText(const PlanPrediction& prediction, bool stale);
// The tool tip of that line: the full estimate note and what all-FP16 and all-INT8 mean.
QString predictionStatusToolTip(const PlanPrediction& prediction);

// About the layer of `node`: its name, precision and time, what INT8 gains over FP16 in it, "fused into X" for a
// node shown on another node's row, and the estimate note. Empty for a node in no layer.
QString predictedNodeSummary(const PlanPrediction& prediction, const Graph& graph, NodeId node);

// The words for a gain: "INT8 saves 0.0040 ms vs FP16 (incl. reformats)", "INT8 costs ...", or why there is none.
QString int8GainText(const PredictedLayer& layer, std::optional<double> gainMs);

// Gains within this of zero are neither paying nor costing (below what the texts show).
inline constexpr double kNeutralGainMs = 5e-5;

// What the prediction says of INT8: it pays, it costs, or neither (float, no change).
enum class GainVerdict { Pays, Costs, Neutral };
// Of one INT8 layer alone (the INT8 gain column).
GainVerdict gainVerdict(const PredictedLayer& layer, std::optional<double> gainMs);
// Of the INT8 island `node`'s layer belongs to, as a whole (the overlay: a region pays or costs with its border
// reformats, which no single layer's gain holds); a layer in no island by its own gain.
GainVerdict regionVerdict(const PlanPrediction& prediction, NodeId node);

}  // namespace ql::ui
