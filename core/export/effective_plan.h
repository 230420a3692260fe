#pragma once
// The precision plan TensorRT will actually run, shared by `compare`, `run --simulate` and `quantize` so that
// the analysis, the simulation and the export agree on every layer: the requested plan (PLAN.json, or the
// default INT8 placement) with the TensorRT lint rules' fallbacks applied (LintPolicy: a layer a rule makes
// fall back loses its INT8, with the rule id and message as the reason).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/common/status.h"
#include "core/lint/trt_version.h"
#include "core/model/graph.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

// `planPath` empty: the default INT8 placement. `fallback`: what the layers TensorRT cannot run in INT8 run in
// instead: FP16 for engines built with --fp16 or strongly typed with FP16 islands (QuantLens's exports are), FP32
// to compare with a runtime that runs the exported model's float layers in FP32 (a weakly typed export in ONNX
// Runtime or the executor). Then the FP16 guard (TrtPolicies): with `calibration`, activations beyond FP16's safe
// range keep their layers FP32, as the export will.
// Then what the export realizes (realized_precision.h): a node planned INT8 that gets no Q/DQ and fuses with nothing
// runs `fallback`, a node TensorRT fuses into an INT8 layer runs INT8. `typing`: the version's default when not given.
Result<PrecisionPlan> effectivePlan(const Graph& graph, const std::string& planPath, TrtVersion version,
                                    Precision fallback = Precision::Fp16,
                                    const CalibrationResult* calibration = nullptr,
                                    std::optional<TrtTyping> typing = std::nullopt);

// The same with the requested precisions given (e.g. the plan a model carries: carried_model.h).
PrecisionPlan effectivePlan(const Graph& graph, PrecisionPlan requested, TrtVersion version, Precision fallback,
                            const CalibrationResult* calibration, std::optional<TrtTyping> typing = std::nullopt);

// Every node with a precision to choose (hasPrecisionChoice) as the export summary lists its layers: {"layer", "op",
// "precision" (effective), "reason" (PrecisionPlan::explanation)}, in graph order; then the layers of the bodies the
// plan quantizes (quantizesBody: the ones the export writes), named by their path ("If_0/then_branch/conv").
nlohmann::json planLayersJson(const Graph& graph, const PrecisionPlan& plan);

// The value of a --trt option ("8.6", "10", "10.x", "11", ...); the error names the option and the accepted values.
Result<TrtVersion> trtVersionOption(const std::string& text);
// --trt and --typing together: `typing` "strong", "weak" or empty (the version's default, defaultTyping()); an
// error when the version cannot build that typing (8.6 strongly, 11 weakly).
Result<TrtTarget> trtTargetOption(const std::string& version, const std::string& typing);

}  // namespace ql
