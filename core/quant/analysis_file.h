#pragma once
// The JSON form of an AnalysisReport: what `quantlens-cli compare --json` prints and what a project file
// keeps, so the window shows the per-layer error again without re-running the analysis.
//   { "mode": "accumulated", "layers_measure": "the whole plan: ...", "samples": 100,
//     "layers": [ { "node": "conv1", "op": "Conv", "output": "x1", "precision": "int8",
//                   "sqnr_db": 31.2, "cosine": 0.9996, "mse": 1.2e-4, "max_abs": 0.05 } ],
//     "outputs": { "top1_agreement": 0.99, "accuracy_fp32": 0.98, "accuracy_quant": 0.978,
//                  "accuracy_delta": -0.002, "samples": 100, "kind": "class_vector",
//                  "per_output": [ { "name": "logits", "kind": "class_vector", "sqnr_db": 28.1, "cosine": 0.998,
//                                    "mse": 3e-3, "max_abs": 0.2, "samples": 100, "top1_agreement": 0.99 },
//                                  { "name": "emb", "kind": "values", "kind_reason": "an embedding: ...", ... } ],
//                  "worst": { "name": "emb", "sqnr_db": 15.7, "cosine": 0.985, "mse": ..., "max_abs": ... } } }
// With If/Loop/Scan bodies, "body_layers" lists their layers like "layers", each named by where it is:
//     "body_layers": [ { "body": "route/then_branch/", "node": "t1", "op": "Conv", "output": "t1", "precision": "int8",
//                        "sqnr_db": 28.0, "cosine": 0.999, "mse": 2e-4, "max_abs": 0.04 } ]
// "sqnr_db" is null for an exact layer (+inf; JSON has no infinity). The "layers" rows measure what
// "layers_measure" says (isolated: each layer alone, not the quantized model); "outputs" always measures the whole
// plan. "outputs"' top-level agreement keys are the first output's, present only when it is a class vector (or
// labels are given; the accuracies only with labels); each "per_output" entry has SQNR, cosine and max error, and the
// agreement keys only for a class vector (output_kind.h); "worst" is the output with the lowest SQNR.
#include <nlohmann/json.hpp>
#include <string>

#include "core/quant/analysis.h"

namespace ql {

nlohmann::json analysisToJson(const Graph& graph, const AnalysisReport& report);
// `label` names the source (a file) in messages; every node and tensor must exist in `graph`.
Result<AnalysisReport> analysisFromJson(const Graph& graph, const nlohmann::json& json, const std::string& label);

}  // namespace ql
