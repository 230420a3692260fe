#include "core/model/attention_pattern.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql {

namespace {

// How far apart BMM1 and the Softmax (or the Softmax and BMM2) may be: scale, mask, cast and a Q/DQ pair.
constexpr int kMaxBetween = 6;

bool isBatchedProduct(const Graph& graph, const Node& node) {
    if (!isDefaultDomain(node) || (node.opType != "MatMul" && node.opType != "Einsum") || node.inputs.size() != 2)
        return false;
    return isComputedValue(graph, node.inputs[0]) && isComputedValue(graph, node.inputs[1]);
}

// The ops exporters put between BMM1 and the Softmax (or after it): walked through, kept in the pattern.
bool isBetweenOp(const Node& node) {
    static constexpr std::array<std::string_view, 11> ops = {
        "Mul",    "Div", "Add", "Sub", "Where", "Cast", "Identity", "Dropout", "QuantizeLinear", "DequantizeLinear",
        "Reshape"};
    return isDefaultDomain(node) && std::find(ops.begin(), ops.end(), node.opType) != ops.end();
}

NodeId producerOf(const Graph& graph, ValueId value) {
    return value == kNoId ? kNoId : graph.value(value).producer;
}

// Up from `value` to BMM1: through the between-ops, following their computed inputs; kNoId when none is found.
NodeId findScores(const Graph& graph, ValueId value, std::vector<NodeId>& path, int depth = 0) {
    const NodeId id = producerOf(graph, value);
    if (id == kNoId || depth > kMaxBetween) return kNoId;
    const Node& node = graph.node(id);
    if (isBatchedProduct(graph, node)) return id;
    if (!isBetweenOp(node)) return kNoId;
    for (ValueId in : node.inputs) {
        if (in == kNoId || !isComputedValue(graph, in)) continue;
        path.push_back(id);
        if (const NodeId found = findScores(graph, in, path, depth + 1); found != kNoId) return found;
        path.pop_back();
    }
    return kNoId;
}

// Down from the Softmax to BMM2, which reads the probabilities as its first input.
NodeId findContext(const Graph& graph, ValueId value, std::vector<NodeId>& path, int depth = 0) {
    if (value == kNoId || depth > kMaxBetween) return kNoId;
    for (NodeId c : graph.value(value).consumers) {
        const Node& node = graph.node(c);
        if (isBatchedProduct(graph, node) && node.inputs[0] == value) return c;
        if (!isBetweenOp(node) || node.outputs.empty()) continue;
        path.push_back(c);
        if (const NodeId found = findContext(graph, node.outputs[0], path, depth + 1); found != kNoId) return found;
        path.pop_back();
    }
    return kNoId;
}

int64_t dimFromEnd(const Graph& graph, ValueId value, size_t fromEnd) {
    if (value == kNoId) return -1;
    const TensorType& type = graph.value(value).type;
    if (!type.hasShape || type.dims.size() < fromEnd) return -1;
    const Dim& d = type.dims[type.dims.size() - fromEnd];
    return d.known() ? d.size : -1;
}

}  // namespace

namespace {

// `depth` bounds the walk up a chain of constant computations (a few nodes in practice).
bool computedValue(const Graph& graph, ValueId value, int depth) {
    if (value == kNoId || isConstant(graph, value)) return false;
    const NodeId p = graph.value(value).producer;
    if (p == kNoId) return true;  // a graph input
    const Node& producer = graph.node(p);
    if (producer.opType == "DequantizeLinear" && !producer.inputs.empty())
        return computedValue(graph, producer.inputs[0], depth);
    // A tensor's shape is not data: the scale 1/sqrt(head size) that PyTorch's scaled_dot_product_attention export
    // computes from Shape(q) is a constant of the graph, not a mask.
    if (producer.opType == "Shape" || producer.opType == "Size") return false;
    // A value computed from constants alone is a constant too: the scale Pow(64, -0.5) PyTorch writes.
    if (depth >= 8 || producer.inputs.empty() || keptByConstantFolding(producer.opType)) return true;
    return std::any_of(producer.inputs.begin(), producer.inputs.end(),
                       [&](ValueId in) { return in != kNoId && computedValue(graph, in, depth + 1); });
}

}  // namespace

bool isComputedValue(const Graph& graph, ValueId value) {
    return computedValue(graph, value, 0);
}

std::vector<AttentionPattern> findAttentionPatterns(const Graph& graph) {
    std::vector<AttentionPattern> patterns;
    for (const Node& node : graph.nodes()) {
        if (!isDefaultDomain(node) || node.opType != "Softmax" || node.inputs.empty() || node.outputs.empty()) continue;
        AttentionPattern p;
        p.softmax = node.id;
        p.scores = findScores(graph, node.inputs[0], p.beforeSoftmax);
        if (p.scores == kNoId) continue;
        std::reverse(p.beforeSoftmax.begin(), p.beforeSoftmax.end());
        p.context = findContext(graph, node.outputs[0], p.afterSoftmax);
        if (p.context == kNoId) p.afterSoftmax.clear();
        const Node& scores = graph.node(p.scores);
        p.queryLength = dimFromEnd(graph, scores.outputs[0], 2);
        p.keyLength = dimFromEnd(graph, scores.outputs[0], 1);
        if (scores.opType == "MatMul") p.headSize = dimFromEnd(graph, scores.inputs[0], 1);
        patterns.push_back(std::move(p));
    }
    return patterns;
}

}  // namespace ql
