#include "core/quant/batchnorm_fold.h"

#include <cmath>

#include "core/model/constant_values.h"

namespace ql {
namespace {

// A float constant (initializer not overridable by a graph input, or Constant node output: the export folds
// constants before BatchNormalization) that only `node` reads.
bool privateFloatConstant(const Graph& graph, ValueId v, NodeId node) {
    if (v == kNoId) return false;
    const Value& value = graph.value(v);
    return isConstant(graph, v) && !value.isGraphInput && !value.isGraphOutput && value.consumers.size() == 1 &&
           value.consumers[0] == node && constantDataType(graph, v) == DataType::Float;
}

// A constant's dims: its initializer's, or the inferred shape of a Constant node's output.
Shape constantShape(const Graph& graph, ValueId v) {
    if (const Initializer* init = graph.initializerOf(v)) return init->dims;
    Shape shape;
    for (const Dim& d : graph.value(v).type.dims) shape.push_back(d.size);
    return shape;
}

bool isWeightedLayer(const Node& node) {
    return node.domain.empty() && (node.opType == "Conv" || node.opType == "ConvTranspose" || node.opType == "Gemm");
}

// Gemm's C must broadcast per output column: absent, or rank <= 2 with 1 or N columns.
bool gemmBiasFolds(const Graph& graph, const Node& layer, int64_t channels) {
    if (layer.inputs.size() < 3 || layer.inputs[2] == kNoId) return true;
    const Shape c = constantShape(graph, layer.inputs[2]);
    if (c.size() > 2) return false;
    const int64_t cols = c.empty() ? 1 : c.back();
    return cols == 1 || cols == channels;
}

std::optional<ChannelAffine> constantAffine(const Graph& graph, const Node& bn) {
    std::vector<std::vector<float>> params;
    for (size_t i = 1; i <= 4; ++i) {
        const ValueId v = bn.inputs[i];
        if (v == kNoId || !isConstant(graph, v) || graph.value(v).isGraphInput) return std::nullopt;
        auto values = constantFloats(graph, v);
        if (!values || constantDataType(graph, v) != DataType::Float) return std::nullopt;
        params.push_back(std::move(*values));
    }
    auto affine = batchNormAffine(params, bn.floatAttribute("epsilon", 1e-5f));
    return affine ? std::optional<ChannelAffine>(std::move(*affine)) : std::nullopt;
}

}  // namespace

Result<ChannelAffine> batchNormAffine(const std::vector<std::vector<float>>& params, float epsilon) {
    if (params.size() != 4) return invalidArgument("BatchNormalization needs scale, bias, mean and var");
    const size_t channels = params[0].size();
    for (const auto& p : params)
        if (p.size() != channels) return unsupported("its scale, bias, mean and var differ in length");
    ChannelAffine affine;
    for (size_t c = 0; c < channels; ++c) {
        const float s = params[0][c] / std::sqrt(params[3][c] + epsilon);
        affine.scale.push_back(s);
        affine.shift.push_back(params[1][c] - params[2][c] * s);
    }
    return affine;
}

Result<OutputChannelLayout> outputChannelLayout(const std::string& op, const std::vector<int64_t>& dims, int64_t group,
                                                bool transB) {
    if (dims.size() < 2) return unsupported("its weight has rank " + std::to_string(dims.size()));
    int64_t inner = 1;
    for (size_t i = 2; i < dims.size(); ++i) inner *= dims[i];
    if (op == "Conv") return OutputChannelLayout{dims[0], [=](int64_t i) { return i / (dims[1] * inner); }};
    if (op == "ConvTranspose") {
        // [C_in, C_out/group, k...]: input channel c of group c / (C_in/group) feeds output group * C_out/group + j.
        if (group <= 0 || dims[0] % group != 0) return unsupported("its group does not divide the weight");
        const int64_t inPerGroup = dims[0] / group;
        return OutputChannelLayout{dims[1] * group, [=](int64_t i) {
                                       const int64_t c = i / (dims[1] * inner), j = (i / inner) % dims[1];
                                       return (c / inPerGroup) * dims[1] + j;
                                   }};
    }
    if (dims.size() != 2) return unsupported("its Gemm weight is not 2-D");
    if (transB) return OutputChannelLayout{dims[0], [=](int64_t i) { return i / dims[1]; }};
    return OutputChannelLayout{dims[1], [=](int64_t i) { return i % dims[1]; }};
}

std::optional<FoldedBatchNorm> foldedBatchNorm(const Graph& graph, const Node& node) {
    if (!isWeightedLayer(node) || node.outputs.empty() || node.outputs[0] == kNoId || node.inputs.size() < 2)
        return std::nullopt;
    const Value& out = graph.value(node.outputs[0]);
    if (out.isGraphOutput || out.consumers.size() != 1) return std::nullopt;
    const Node& bn = graph.node(out.consumers[0]);
    if (bn.opType != "BatchNormalization" || !bn.domain.empty() || bn.inputs.size() < 5 ||
        bn.inputs[0] != node.outputs[0])
        return std::nullopt;
    if (bn.intAttribute("training_mode", 0) != 0 || bn.intAttribute("spatial", 1) == 0) return std::nullopt;
    for (size_t i = 1; i < bn.outputs.size(); ++i)
        if (bn.outputs[i] != kNoId) return std::nullopt;
    const bool hasBias = node.inputs.size() > 2 && node.inputs[2] != kNoId;
    if (!privateFloatConstant(graph, node.inputs[1], node.id) ||
        (hasBias && !privateFloatConstant(graph, node.inputs[2], node.id)))
        return std::nullopt;
    auto affine = constantAffine(graph, bn);
    auto layout = outputChannelLayout(node.opType, constantShape(graph, node.inputs[1]), node.intAttribute("group", 1),
                                      node.intAttribute("transB", 0) != 0);
    if (!affine || !layout || layout->channels != static_cast<int64_t>(affine->scale.size())) return std::nullopt;
    if (node.opType == "Gemm" && !gemmBiasFolds(graph, node, layout->channels)) return std::nullopt;
    if (hasBias && node.opType != "Gemm") {
        if (shapeElementCount(constantShape(graph, node.inputs[2])) != layout->channels) return std::nullopt;
    }
    return FoldedBatchNorm{bn.id, std::move(affine->scale)};
}

NodeId layerFoldingBatchNorm(const Graph& graph, const Node& bn) {
    if (bn.opType != "BatchNormalization" || bn.inputs.empty() || bn.inputs[0] == kNoId) return kNoId;
    const NodeId layer = graph.value(bn.inputs[0]).producer;
    if (layer == kNoId) return kNoId;
    const auto folded = foldedBatchNorm(graph, graph.node(layer));
    return folded && folded->batchNorm == bn.id ? layer : kNoId;
}

Tensor scaleByOutputChannel(const Tensor& weight, const Node& node, const std::vector<float>& factor, bool divide) {
    const auto layout = outputChannelLayout(node.opType, weight.shape(), node.intAttribute("group", 1),
                                            node.intAttribute("transB", 0) != 0);
    const std::vector<float> in = weight.toFloats();
    Tensor out(DataType::Float, weight.shape());
    if (!layout) return Tensor::fromVector(DataType::Float, weight.shape(), in);  // not a layer that folds
    float* y = out.data<float>();
    for (size_t i = 0; i < in.size(); ++i) {
        const float s = factor[static_cast<size_t>(layout->channelOf(static_cast<int64_t>(i)))];
        y[i] = !divide ? in[i] * s : (s == 0.0f ? 0.0f : in[i] / s);
    }
    return out;
}

}  // namespace ql
