#pragma once
// The JSON form of an AnalysisReport: what `quantlens-cli compare --json` prints and what a project file
// keeps, so the window shows the per-layer error again without re-running the analysis.
//   { "mode": "accumulated", "samples": 100,
//     "layers": [ { "node": "conv1", "op": "Conv", "output": "x1", "precision": "int8",
//                   "sqnr_db": 31.2, "cosine": 0.9996, "mse": 1.2e-4, "max_abs": 0.05 } ],
//     "outputs": { "top1_agreement": 0.99, "accuracy_fp32": 0.98, "accuracy_quant": 0.978,
//                  "accuracy_delta": -0.002 } }
// "sqnr_db" is null for an exact layer (+inf; JSON has no infinity); "outputs" is empty when the first
// output has no per-sample rows; the accuracies are present only with labels.
#include <nlohmann/json.hpp>
#include <string>

#include "core/quant/analysis.h"

namespace ql {

nlohmann::json analysisToJson(const Graph& graph, const AnalysisReport& report);
// `label` names the source (a file) in messages; every node and tensor must exist in `graph`.
Result<AnalysisReport> analysisFromJson(const Graph& graph, const nlohmann::json& json, const std::string& label);

}  // namespace ql
