#pragma once
// "Simulation follows the model": a model that already carries its precisions (Q/DQ nodes, float16 islands of a
// strongly typed export) is simulated as written. `run --simulate`, `compare` and `quantize` then work on the FP32
// model it was made from (qdq_import.h) with the plan and the scales it carries:
//   - INT8: every node a DequantizeLinear fed in the model (its QdqLinks), and the nodes TensorRT fuses with them
//     (epilogues, SiLU, data movement between INT8 layers: closeInt8 in default_placement.h), as the export's own
//     realized plan decides them (realized_precision.h: writtenPrecisions is its inverse);
//   - FP16: the nodes that computed in float16 (DequantizedModel::fp16Nodes);
//   - every other float node: FP32 when the model is strongly typed (it carries float16 islands, or QuantLens wrote
//     it for a strongly typed target: metadata "quantlens.typing"), FP16 when not (the builder's --fp16 decides);
//   - the scales: the model's own for every tensor it quantizes, over any calibration given for the rest.
// So `run --simulate` on a strongly typed export computes what the executor computes on the file itself.
// A model in ONNX Runtime's operator form (integer ops, QLinear*: qoperator_import.h) is made float first: the nodes
// made from quantized ones are INT8, the other float nodes FP16 (weakly typed), its scales are the static ones it had
// (none for dynamic quantization); Q/DQ nodes left beside them are then read as above.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/qdq_import.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace ql {

// The metadata key of the typing QuantLens's export was written for ("strong" or "weak").
inline constexpr const char* kTypingMetadataKey = "quantlens.typing";
// Weak typing: the layers the export keeps in FP32 (a JSON array of node names), which its trtexec script pins with
// --layerPrecisions; a float32 node the file does not name is the builder's --fp16 choice.
inline constexpr const char* kFp32LayersMetadataKey = "quantlens.fp32_layers";

// The typing QuantLens wrote `model` for ("strong", "weak"), or empty (another tool's model).
std::string writtenTyping(const Model& model);
// The layers a weakly typed export names as FP32 (kFp32LayersMetadataKey): the main graph's by their names, an
// If/Loop/Scan body's under its path ("If_0/then_branch/conv"); empty when the file names none or is unreadable.
std::vector<std::string> writtenFp32Layers(const Model& model);
// Sets `key` in `proto`'s metadata, replacing the value it had.
void recordMetadata(onnx::ModelProto& proto, const char* key, const std::string& value);

struct CarriedModel {
    std::unique_ptr<Model> model;       // FP32: the model itself when it carries nothing
    std::optional<PrecisionPlan> plan;  // what it carries, on `model`; nullopt for a plain FP32 model
    CalibrationResult scales;           // its own activation and weight scales (empty for a plain model)
    size_t fp16Nodes = 0;
    std::string qoperatorImport;  // qoperatorImportSummary when the model was in ONNX Runtime's operator form
};

// True when the model carries precisions of its own (Q/DQ nodes, float16 islands or QOperator/integer ops), in its
// main graph or in an If/Loop/Scan body. carriedModel reads the bodies back like the main graph: each made float in
// place, its plan the body's plan (PrecisionPlan::bodies), its scales under the body's path (subgraphActivations).
bool carriesPrecisions(const Graph& graph);
// The same, or a model QuantLens's export wrote (metadata "quantlens.typing"): even without Q/DQ or float16 (a plan
// all FP32, or all FP16 under weak typing) it carries its plan, which a default placement must not replace.
bool carriesPrecisions(const Model& model);
Result<CarriedModel> carriedModel(std::unique_ptr<Model> model);

// The precisions `model` carries, on `model`'s own graph (Q/DQ nodes, Casts and all), for a view that shows the file
// as it is: each node the precision carriedModel gives the node of that name in the float form; nodes that are not
// in it (Q/DQ, Casts) FP32; the bodies that carry precisions likewise, as body plans over the file's bodies. The
// default placement for a model that carries nothing.
Result<PrecisionPlan> writtenPlan(const Model& model);

// `calibration` (for `graph`, the FP32 model) with the carried amax over the activations the model quantizes; the
// ones it lacks are added.
void applyCarriedScales(CalibrationResult& calibration, const CalibrationResult& carried);

}  // namespace ql
