#pragma once
// The whole export: prepare a copy of the model (graph_preparation.h), raise its opset to 13 when lower
// (per-channel Q/DQ needs `axis`), place and write the Q/DQ nodes, and describe every decision.
//
// Summary JSON:
//   { "format": "quantlens-qdq-summary", "version": 1, "model": "<file>", "opset": 13,
//     "target": { "trt": "11.x", "typing": "strong", "fp16_io": false },
//     "fp16_islands": { "nodes": 12, "casts": 6, "initializers": 4 },
//     "script": { "flags": [], "pinned_fp32_layers": 0, "relies_on": ["..."] },
//     "preparation": [ { "action": "fold-batchnorm", "node": "...", "detail": "..." } ],
//     "layers": [ { "layer": "conv1", "op": "Conv", "precision": "int8", "reason": "..." } ],
//     "qdq": [ { "layer": "conv1", "input": 1, "tensor": "w", "kind": "weight", "scale": [..], "axis": 0,
//                "reason": "..." } ] }
// The layers and Q/DQ of planned If/Loop/Scan bodies (body_export.h) follow the main graph's, named by where they
// are: "If_0/then_branch/conv1" (nested: "Loop_1/body/If_2/else_branch/conv").
#include <onnx/onnx_pb.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/fp16_islands.h"
#include "core/export/preparation_step.h"
#include "core/lint/trt_version.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"
#include "core/quant/qdq_placement.h"

namespace ql {

inline constexpr int64_t kQdqMinOpset = 13;

// What the export is for (trt_version.h): a strongly typed target gets the plan's FP16 layers written as float16
// islands (fp16_islands.h); a weakly typed one leaves them to the builder's --fp16.
struct ExportTarget {
    TrtTarget trt;
    bool fp16Io = false;  // strongly typed: float graph inputs and outputs become float16 too
};

struct QdqExport;
// A body of an If/Loop/Scan node written with Q/DQ of its own (body_export.h).
struct QdqBodyExport {
    std::string node;       // the control-flow node of the enclosing graph
    std::string attribute;  // "then_branch", "else_branch", "body"
    std::unique_ptr<QdqExport> body;
};

struct QdqExport {
    std::unique_ptr<Model> prepared;  // what the placement refers to
    std::vector<PreparationStep> steps;
    QdqPlacement placement;  // layers[i].precision: what node i of `prepared` runs in the written model
    onnx::ModelProto proto;  // the Q/DQ model
    TrtTarget target;
    bool fp16Io = false;
    Fp16IslandStats islands;
    std::vector<QdqBodyExport> bodies;  // the planned bodies, as written into `proto`
};

// `plan` holds the precisions of `model`'s nodes; calibration amax are looked up by tensor name. Apply the
// Fp16Guard to the plan first (effectivePlan does) so the simulation sees the same FP32 layers; the export checks
// the guard again on the prepared graph (folded BatchNormalization, folded constants).
Result<QdqExport> exportQdq(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calibration,
                            const QdqOptions& options = {}, const ExportTarget& target = {});

// What the written model runs in INT8, counted as lint and the window's status bar count: weighted layers (Conv,
// ConvTranspose, Gemm, MatMul), and all layers, which adds the activations, pools and adds that run INT8 inside or
// beside them. Also the layers the FP16 guard kept FP32. Planned If/Loop/Scan bodies count with the main graph.
struct ExportLayerCounts {
    int quantizedInputs = 0;  // the Q/DQ edges written (placement.edges), the planned bodies' included
    int weighted = 0;
    int int8Weighted = 0;
    int int8All = 0;
    int fp16Guarded = 0;
};
ExportLayerCounts exportLayerCounts(const QdqExport& result);

nlohmann::json qdqSummaryJson(const QdqExport& result);
// Writes the model and (when `summaryPath` is not empty) the summary, each atomically.
Status saveQdqExport(const QdqExport& result, const std::string& modelPath, const std::string& summaryPath);

}  // namespace ql
