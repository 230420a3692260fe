#pragma once
// The whole export: prepare a copy of the model (graph_preparation.h), raise its opset to 13 when lower
// (per-channel Q/DQ needs `axis`), place and write the Q/DQ nodes, and describe every decision.
//
// Summary JSON:
//   { "format": "quantlens-qdq-summary", "version": 1, "model": "<file>", "opset": 13,
//     "preparation": [ { "action": "fold-batchnorm", "node": "...", "detail": "..." } ],
//     "layers": [ { "layer": "conv1", "op": "Conv", "precision": "int8", "reason": "..." } ],
//     "qdq": [ { "layer": "conv1", "input": 1, "tensor": "w", "kind": "weight", "scale": [..], "axis": 0,
//                "reason": "..." } ] }
#include <onnx/onnx_pb.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/preparation_step.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"
#include "core/quant/qdq_placement.h"

namespace ql {

inline constexpr int64_t kQdqMinOpset = 13;

struct QdqExport {
    std::unique_ptr<Model> prepared;  // what the placement refers to
    std::vector<PreparationStep> steps;
    QdqPlacement placement;
    onnx::ModelProto proto;  // the Q/DQ model
};

// `plan` holds the precisions of `model`'s nodes; calibration amax are looked up by tensor name.
Result<QdqExport> exportQdq(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calibration,
                            const QdqOptions& options = {});

nlohmann::json qdqSummaryJson(const QdqExport& result);
// Writes the model and (when `summaryPath` is not empty) the summary, each atomically.
Status saveQdqExport(const QdqExport& result, const std::string& modelPath, const std::string& summaryPath);

}  // namespace ql
