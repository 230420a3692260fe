#pragma once
// What `quantlens-cli predict` prints, in its two forms: the JSON of the CLI contract (issue 28, item 4) and a text
// table. Every time in both is an estimate and says so, with how far off the model was where it was checked (or
// how well a fitted GPU profile fitted).
//
// JSON:
//   {"gpu": {"name", "display_name", "compute_capability", "source", "profile" (file or null)},
//    "trt": "10.x", "typing": "strong" | "weak",
//    "layers": [{"name", "onnx_nodes": [names], "kind", "cost_class", "precision",
//                "inputs": [{"tensor" (or null), "precision", "format"}], "outputs": [...],
//                "macs", "bytes", "time_ms", "feeds" (a reformat: the index of the layer it feeds, else null),
//                "note"}],
//    "reformats": N, "reformat_ms", "total_ms", "fp16_total_ms", "speedup_vs_fp16",
//    "bodies": [{"node", "op", "attribute", "trips" (a Loop's constant trip count, else null), "layers": [as above],
//                "reformats", "total_ms" (one run), "counted_ms" (what total_ms counts of it), "bodies": [nested]}],
//    "bodies_ms": what total_ms counts of the bodies (an If's slower branch, a Loop's body times its trips),
//    "unpredicted_bodies": [{"node", "bodies", "body_nodes"}] (bodies that could not be read as graphs),
//    "approximate_shapes": bool,
//    "estimate": {"fitted": bool, "checked_error": relative error of the total where checked, "note"}}
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/engine/engine_prediction.h"
#include "core/engine/latency_model.h"

namespace ql {

struct PredictionView {
    const Graph& graph;
    const EnginePrediction& prediction;
    const LatencyEstimate& estimate;
    const LatencyEstimate& fp16Estimate;  // the same model, every float layer FP16
    const GpuProfile& profile;
};

nlohmann::json predictionToJson(const PredictionView& view);
std::string predictionToText(const PredictionView& view);
// What the prediction leaves out: the nodes inside If/Loop/Scan bodies (EnginePrediction::unpredictedBodies), in words.
std::string unpredictedBodiesText(const EnginePrediction& prediction);

// The "estimate" object: fitted or not, and how far off it was where it was checked.
nlohmann::json estimateJson(const GpuProfile& profile);
// The relative error `estimateJson`'s "checked_error" gives: the fit's (fitted profile), else the unfitted model's.
double estimateCheckedError(const GpuProfile& profile);
// One line saying the times are estimates and how far off they were where checked.
std::string estimateNote(const GpuProfile& profile);

}  // namespace ql
