#pragma once
// Reads the scales back out of a Q/DQ model (ours or one quantized elsewhere, e.g. by ONNX Runtime or
// TensorRT Model Optimizer) and gives back the FP32 model it was made from, so the model can be inspected,
// re-planned and re-exported:
//   - QuantizeLinear -> DequantizeLinear on a tensor: the activation scale, keyed by the tensor it
//     quantizes (the Q input); the pair is removed and its consumers read that tensor again.
//   - DequantizeLinear over an INT8/UINT8 initializer: the weight scales (per channel on `axis`); the
//     weight is dequantized back to a FLOAT initializer named like the original (the "_quantized" suffix
//     dropped) and the DequantizeLinear removed. Q -> DQ over a float weight: the float weight is kept.
// amax = scale * 127 for symmetric INT8 (zero point 0), chosen so that amax / 127 gives the scale back bit
// for bit; an asymmetric pair gives amax = max(|min|, |max|) of its range. Dequantized weights are exact
// (level * scale), except that a level of +-127 becomes +-amax, so recomputing the channel's amax from the
// weights and dividing by 127 also gives the same scale: export -> import -> export keeps every scale.
// Re-export means: the FP32 model here, a plan (the default one unless given) and these activation scales;
// weight scales are computed from the weights again, as for any export.
// FP16 islands (a strongly typed export, AutoCast) are undone first (fp16_import.h): the model comes back float32
// with its Casts to and from float16 gone, and `fp16Nodes` names the nodes that computed in float16. The default
// placement gives every float node that is not INT8 FP16, so a plan made from it keeps them FP16.
#include <memory>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/fp16_import.h"
#include "core/model/model.h"
#include "core/quant/calibration.h"

namespace ql {

struct DequantizedModel {
    std::unique_ptr<Model> model;        // FP32, same node and tensor names as before quantization
    CalibrationResult scales;            // activations in graph value order; weights with their layer in `model`
    std::vector<std::string> fp16Nodes;  // nodes of `model` that computed in float16, in graph order
    bool float16Io = false;              // the graph's float inputs and outputs were float16 (--fp16-io)
};

// True when the graph has QuantizeLinear or DequantizeLinear nodes. A model to import (as the FP32 model it was
// made from) is one with Q/DQ nodes or with float16 islands (hasFloat16Islands, fp16_import.h).
bool hasQdqNodes(const Graph& graph);

// An error naming the node when a scale or zero point is not a constant, or a DequantizeLinear reads
// neither a QuantizeLinear nor a quantized initializer. A model without Q/DQ nodes gives its FP32 form, no scales.
Result<DequantizedModel> dequantizeQdqModel(const Model& qdq);

// An amax whose amax / 127 is exactly `scale` (the nearest one when no float has that property).
float amaxForScale(float scale);

}  // namespace ql
