#pragma once
// Turns a model quantized in ONNX Runtime's operator form (QOperator ops and integer ops, which TensorRT runs none
// of) back into the float model it was made from, with the scales it carried, so it can be re-quantized:
//   - dynamic quantization: DynamicQuantizeLinear(x) -> ConvInteger(xq, wq, x_zp, w_zp) -> Cast(FLOAT) ->
//     Mul(., Mul(x_scale, w_scale)) [-> Add(bias, directly or through a Reshape to [1, C, 1, 1])] becomes
//     Conv(x, W[, bias]); the MatMulInteger form becomes MatMul(x, W) (its Add stays). Such a model carries no
//     activation scales (they are computed per input at run time): only weight scales come back;
//   - static QOperator: QuantizeLinear -> QLinearConv / QLinearMatMul (and com.microsoft QLinearAdd, QLinearMul,
//     QLinearSigmoid, QLinearLeakyRelu, QLinearGlobalAveragePool, QLinearConcat) -> DequantizeLinear become the float
//     ops. Each op's quantized tensors become float tensors of the same name, whose ranges (amax from scale and zero
//     point, as the Q/DQ import reads them) are the imported activation scales; data movement between them
//     (MaxPool, Reshape, Transpose, Resize, ...) stays and now moves floats. QLinearConv's int32 bias becomes
//     bias * x_scale * w_scale;
// W = (wq - w_zp) * w_scale exactly (per tensor, or per channel: axis 0 for Conv, the last axis for MatMul), named
// like the quantized weight without its "_quantized" suffix. Whatever is not recognized stays as it is and is listed
// with the reason; a node that still reads a quantized tensor that became float gets it requantized
// (QuantizeLinear with the tensor's own scale and zero point), so it computes what it computed before.
// Q/DQ nodes that are not part of these patterns stay for the Q/DQ import (qdq_import.h).
#include <memory>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/export/qdq_import.h"
#include "core/model/model.h"

namespace ql {

struct UnrecognizedNode {
    std::string node;
    std::string opType;
    std::string reason;
};

struct QOperatorImport {
    DequantizedModel imported;           // float model; activation (static) and weight scales
    std::vector<std::string> int8Nodes;  // float nodes made from quantized ones, in rewrite order
    size_t dynamicLayers = 0;            // Conv / MatMul made from integer ops (dynamic quantization)
    size_t staticNodes = 0;              // float nodes made from QLinear* ops
    std::vector<UnrecognizedNode> unrecognized;
};

// True when the graph has integer or QOperator nodes (ConvInteger, MatMulInteger, DynamicQuantizeLinear, QLinear*,
// com.microsoft DynamicQuantizeMatMul / MatMulIntegerToFloat / QGemm / QAttention).
bool hasQOperatorNodes(const Graph& graph);
// True for one such node (what hasQOperatorNodes looks for).
bool isQOperatorNode(const Node& node);

// An error naming the node when a scale, zero point or weight of a recognized pattern cannot be read.
Result<QOperatorImport> importQOperatorModel(const Model& quantized);

// "dynamic: 119 layers; static: 0 nodes; 2 unrecognized (first: 'n' (QGemm): reason)"
std::string qoperatorImportSummary(const QOperatorImport& import);

}  // namespace ql
