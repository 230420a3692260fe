#pragma once
// The calibration file (CALIB.json) that `quantlens-cli calibrate -o` writes and compare/quantize read:
//   {
//     "format": "quantlens-calibration", "version": 1,
//     "method": "entropy",                 calibrationMethodName() of the config used
//     "samples": 128,
//     "activations": { "<value name>": { "amax": 2.5, "scale": 0.0197, "method": "mse",
//         "min": -1.2, "max": 2.5, "nonFinite": 0,
//         "amax_by_method": { "minmax": 2.5, "percentile": 2.4, "entropy": 2.1, "mse": 2.2 },
//         "histogram": { "range": 4.0, "counts": [512 counts of x over [-range, range]] },
//         "channel_amax": { "axis": 1, "amax": [max |x| per channel] } } },
//     "weights": { "<initializer name>": { "node": "<node name>", "axis": 0, "amax": [0.5, 0.7] } },
//     "subgraph_activations": { "If_0/then_branch/x": { ...as an activation... } }    optional
//   }
// "scale" (amax / 127) is written for readers and ignored on load; a tensor's "method" names the method its
// amax came from (with `"method": "auto"` the one chosen for it; absent: the file's method), a label: "amax"
// is the value used; "amax_by_method", "histogram" and "channel_amax" are
// optional (files written before they existed load without them). See docs/calibration-schema.md.
// Loading checks every name against the model: an unknown tensor or node is an error naming it; a subgraph tensor's
// path must start with a control-flow node of the model and one of its body attributes.
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/status.h"
#include "core/quant/calibration.h"

namespace ql {

nlohmann::json calibrationToJson(const Graph& graph, const CalibrationResult& result);
Result<CalibrationResult> calibrationFromJson(const Graph& graph, const nlohmann::json& json, const std::string& label);

Status saveCalibration(const Graph& graph, const CalibrationResult& result, const std::string& path);
Result<CalibrationResult> loadCalibration(const Graph& graph, const std::string& path);

}  // namespace ql
