#pragma once
// The JSON form of a TuneReport, what `quantlens-cli tune --json` prints:
//   { "target": "accuracy-drop<=0.3", "met": true, "samples": 450, "subset_samples": 112,
//     "fp32_metric": 81.2,                          (metric targets)
//     "start": 14.4, "final": 0.0,                  the target's value (a drop: points) on all samples
//     "steps": [ { "step": 1, "action": "baseline" | "method" | "fallback" | "give-back" | "confirm",
//                  "layer": "conv1", "tensor": "input", "method": "minmax", "precision": "fp16",
//                  "value": 0.4, "kept": true, "samples": 112, "why": "..." } ],
//     "sensitivity": { "layers": [ { "layer", "op", "nodes": [...], "output_sqnr_db", "macs" } ],
//                      "tensors": [ { "tensor", "method", "amax", "output_sqnr_db" } ] },
//     "kept_out": [ { "layer", "op", "precision" } ], "int8_mac_share": 0.97, "int8_macs", "total_macs",
//     "trials": 14, "seconds": 12.3, "sensitivity_passes": 2.4 }
// "layer", "tensor", "method" and "precision" of a step are present where the action has them.
#include <nlohmann/json.hpp>

#include "core/quant/tuning.h"

namespace ql {

nlohmann::json tuneReportToJson(const Graph& graph, const TuneReport& report);

}  // namespace ql
