#include "core/model/op_roles.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ql {

namespace {

template <size_t N>
bool oneOf(const Node& node, const std::array<std::string_view, N>& ops) {
    return isDefaultDomain(node) && std::find(ops.begin(), ops.end(), node.opType) != ops.end();
}

}  // namespace

bool isDefaultDomain(const Node& node) {
    return node.domain.empty() || node.domain == "ai.onnx";
}

bool movesData(const Node& node) {
    static constexpr std::array<std::string_view, 14> ops = {
        "Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze", "Identity",     "Slice",
        "Split",   "Concat",    "Gather",  "Expand",  "Tile",      "DepthToSpace", "SpaceToDepth"};
    return oneOf(node, ops);
}

bool keepsValues(const Node& node) {
    static constexpr std::array<std::string_view, 3> ops = {"Relu", "MaxPool", "GlobalMaxPool"};
    return movesData(node) || oneOf(node, ops);
}

bool keptByConstantFolding(std::string_view opType) {
    constexpr std::array<std::string_view, 12> kept = {"QuantizeLinear",
                                                       "DequantizeLinear",
                                                       "RandomNormal",
                                                       "RandomUniform",
                                                       "RandomNormalLike",
                                                       "RandomUniformLike",
                                                       "Multinomial",
                                                       "Bernoulli",
                                                       "If",
                                                       "Loop",
                                                       "Scan",
                                                       "Constant"};
    return std::find(kept.begin(), kept.end(), opType) != kept.end();
}

const Node* computingProducer(const Graph& graph, ValueId value, int maxDepth) {
    for (int depth = 0; depth <= maxDepth && value != kNoId; ++depth) {
        const NodeId p = graph.value(value).producer;
        if (p == kNoId) return nullptr;
        const Node& node = graph.node(p);
        if (!movesData(node) || node.opType == "Concat" || node.inputs.empty()) return &node;
        value = node.inputs[0];
    }
    return nullptr;
}

}  // namespace ql
