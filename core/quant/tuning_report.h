#pragma once
// The JSON form of a TuneReport, what `quantlens-cli tune --json` prints:
//   { "target": "accuracy-drop<=0.3", "objective": "accuracy" | "latency", "met": true, "samples": 450,
//     "subset_samples": 112,
//     "fp32_metric": 81.2,                          (metric targets)
//     "start": 14.4, "final": 0.0,                  the target's value (a drop: points) on all samples
//     "steps": [ { "step": 1, "action": "baseline" | "method" | "fallback" | "give-back" | "confirm" | "speed" |
//                                      "all-fp16",
//                  "layer": "conv1", "tensor": "input", "method": "minmax", "precision": "fp16",
//                  "value": 0.4, "kept": true, "samples": 112, "why": "...",
//                  "predicted_ms": 0.21 } ],           with a GPU: the plan's predicted engine time (an estimate);
//                                                      each step is a plan tried, (predicted_ms, value) a point of
//                                                      the latency-vs-accuracy plot
//     "sensitivity": { "layers": [ { "layer", "op", "nodes": [...], "output_sqnr_db", "macs" } ],
//                      "tensors": [ { "tensor", "method", "amax", "output_sqnr_db" } ] },
//     "kept_out": [ { "layer", "op", "precision" } ], "kept_out_by_plan": [ the same: the start plan's ],
//     "int8_mac_share": 0.97, "int8_macs", "total_macs",
//     "trials": 14, "seconds": 12.3, "sensitivity_passes": 2.4,
//     "latency": {                                  with a GPU (--gpu, --gpu-profile)
//       "gpu": "rtx3060-laptop", "start_ms", "fp16_ms", "final_ms",   predicted: start plan, all-FP16, the result
//       "fp16_value": 0.0,                          the all-FP16 plan's value on all samples (objective latency)
//       "regions": [ { "nodes": [...], "layers": 3, "precision": "fp16" | "int8", "pays": false,
//                      "int8_saves_ms", "reformats", "reformat_cost_ms", "net_ms", "why": "INT8 saves ..." } ],
//                                                   objective latency: moved for speed, then the INT8 islands left
//       "predictions": 120,                         plans the regions search predicted
//       "estimate": { "fitted", "checked_error", "note" } } }     (added by the CLI: prediction_report.h)
// "layer", "tensor", "method" and "precision" of a step are present where the action has them.
#include <nlohmann/json.hpp>

#include "core/quant/tuning.h"

namespace ql {

nlohmann::json tuneReportToJson(const Graph& graph, const TuneReport& report);

}  // namespace ql
