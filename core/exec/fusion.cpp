#include "core/exec/fusion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/model/constant_values.h"

namespace ql {

namespace {

using alg = dnnl::algorithm;

bool isFloatValue(const Graph& graph, ValueId id) {
    return id != kNoId && graph.value(id).type.dtype == DataType::Float;
}

// The tensor may disappear into a group: read by exactly `consumers` nodes and not a graph output.
bool isPrivate(const Graph& graph, ValueId id, size_t consumers) {
    const Value& v = graph.value(id);
    return isFloatValue(graph, id) && !v.isGraphOutput && v.consumers.size() == consumers;
}

bool isOnnxOp(const Node& node, const char* opType) {
    return (node.domain.empty() || node.domain == "ai.onnx") && node.opType == opType;
}

// A scalar constant input, `fallback` when omitted, nullopt when not a readable constant.
std::optional<float> constantScalar(const Graph& graph, const Node& node, size_t input, float fallback) {
    if (input >= node.inputs.size() || node.inputs[input] == kNoId) return fallback;
    const auto values = constantFloats(graph, node.inputs[input]);
    if (!values || values->size() != 1) return std::nullopt;
    return (*values)[0];
}

std::optional<std::vector<PostOp>> clipPostOps(const Graph& graph, const Node& node) {
    constexpr float kLowest = std::numeric_limits<float>::lowest(), kMax = std::numeric_limits<float>::max();
    std::optional<float> lo = node.floatAttribute("min", kLowest), hi = node.floatAttribute("max", kMax);
    if (graph.opsetVersion(node.domain) >= 11) {
        lo = constantScalar(graph, node, 1, kLowest);
        hi = constantScalar(graph, node, 2, kMax);
    }
    // min > max makes Clip return max everywhere, which the oneDNN clip does not reproduce.
    if (!lo || !hi || *lo > *hi) return std::nullopt;
    return std::vector<PostOp>{{false, alg::eltwise_clip, *lo, *hi}};
}

}  // namespace

std::optional<std::vector<PostOp>> activationPostOps(const Graph& graph, const Node& node) {
    auto one = [](alg a, float alpha = 0.0f, float beta = 0.0f) {
        return std::vector<PostOp>{{false, a, alpha, beta}};
    };
    if (isOnnxOp(node, "Relu")) return one(alg::eltwise_relu);
    if (isOnnxOp(node, "LeakyRelu")) return one(alg::eltwise_relu, node.floatAttribute("alpha", 0.01f));
    if (isOnnxOp(node, "Sigmoid")) return one(alg::eltwise_logistic);
    if (isOnnxOp(node, "Tanh")) return one(alg::eltwise_tanh);
    if (isOnnxOp(node, "Elu")) return one(alg::eltwise_elu, node.floatAttribute("alpha", 1.0f));
    if (isOnnxOp(node, "HardSwish")) return one(alg::eltwise_hardswish);
    if (isOnnxOp(node, "HardSigmoid"))  // max(0, min(1, alpha * x + beta))
        return std::vector<PostOp>{
            {false, alg::eltwise_linear, node.floatAttribute("alpha", 0.2f), node.floatAttribute("beta", 0.5f)},
            {false, alg::eltwise_clip, 0.0f, 1.0f}};
    if (isOnnxOp(node, "Clip")) return clipPostOps(graph, node);
    return std::nullopt;
}

namespace {

bool isHardSwishGate(const Node& node) {
    return std::abs(node.floatAttribute("alpha", 0.2f) - 1.0f / 6.0f) < 1e-7f &&
           node.floatAttribute("beta", 0.5f) == 0.5f;
}

// x * Sigmoid(x) (SiLU) or x * HardSigmoid(x; 1/6, 1/2) (HardSwish) where `x` feeds exactly those two nodes.
// Returns the post-op and fills gate / mul.
std::optional<PostOp> gatedActivation(const Graph& graph, ValueId x, NodeId& gate, NodeId& mul) {
    const auto& consumers = graph.value(x).consumers;
    if (consumers.size() != 2) return std::nullopt;
    for (int first = 0; first < 2; ++first) {
        const Node& g = graph.node(consumers[static_cast<size_t>(first)]);
        const Node& m = graph.node(consumers[static_cast<size_t>(1 - first)]);
        if (g.inputs.size() != 1 || g.inputs[0] != x || g.outputs.size() != 1) continue;
        if (!isPrivate(graph, g.outputs[0], 1) || !isOnnxOp(m, "Mul") || m.inputs.size() != 2) continue;
        const bool operands =
            (m.inputs[0] == x && m.inputs[1] == g.outputs[0]) || (m.inputs[1] == x && m.inputs[0] == g.outputs[0]);
        if (!operands || !isFloatValue(graph, m.outputs[0])) continue;
        gate = g.id;
        mul = m.id;
        if (isOnnxOp(g, "Sigmoid")) return PostOp{false, alg::eltwise_swish, 1.0f, 0.0f};
        if (isOnnxOp(g, "HardSigmoid") && isHardSwishGate(g)) return PostOp{false, alg::eltwise_hardswish, 0, 0};
    }
    return std::nullopt;
}

bool sameKnownShape(const TensorType& a, const TensorType& b) {
    if (!a.hasShape || !b.hasShape || a.dims.size() != b.dims.size()) return false;
    for (size_t d = 0; d < a.dims.size(); ++d)
        if (!a.dims[d].known() || !b.dims[d].known() || a.dims[d].size != b.dims[d].size) return false;
    return true;
}

// Add(x, other) with `other` of x's shape (no broadcast), as the first post-op (where oneDNN supports sum).
bool isFusableAdd(const Graph& graph, const Node& add, ValueId x, const FusionGroup& group) {
    if (!isOnnxOp(add, "Add") || add.inputs.size() != 2 || !group.postOps.empty()) return false;
    const ValueId other = add.inputs[0] == x ? add.inputs[1] : add.inputs[0];
    if (other == x || other == kNoId || !isFloatValue(graph, other)) return false;
    return sameKnownShape(graph.value(x).type, graph.value(other).type) &&
           sameKnownShape(graph.value(x).type, graph.value(add.outputs[0]).type);
}

// Extends the group by one step from its current output; false when nothing more can be folded in. `claimed`
// marks nodes already in a group (an Add of two convolutions' outputs joins only the first).
bool extend(const Graph& graph, FusionGroup& group, std::vector<bool>& claimed) {
    const ValueId x = group.output;
    NodeId gate = kNoId, mul = kNoId;
    if (auto op = gatedActivation(graph, x, gate, mul); op && isPrivate(graph, x, 2)) {
        claimed[static_cast<size_t>(gate)] = claimed[static_cast<size_t>(mul)] = true;
        group.postOps.push_back(*op);
        group.hidden.insert(group.hidden.end(), {x, graph.node(gate).outputs[0]});
        group.fused.insert(group.fused.end(), {gate, mul});
        group.output = graph.node(mul).outputs[0];
        return true;
    }
    if (!isPrivate(graph, x, 1)) return false;
    const Node& next = graph.node(graph.value(x).consumers[0]);
    if (claimed[static_cast<size_t>(next.id)]) return false;
    if (next.outputs.size() != 1 || next.inputs.empty() || !isFloatValue(graph, next.outputs[0])) return false;
    if (isFusableAdd(graph, next, x, group)) {
        group.postOps.push_back(PostOp{true, alg::undef, 0, 0});
        group.sumOperand = next.inputs[0] == x ? next.inputs[1] : next.inputs[0];
    } else if (next.inputs[0] != x) {
        return false;
    } else if (auto ops = activationPostOps(graph, next)) {
        group.postOps.insert(group.postOps.end(), ops->begin(), ops->end());
    } else {
        return false;
    }
    claimed[static_cast<size_t>(next.id)] = true;
    group.hidden.push_back(x);
    group.fused.push_back(next.id);
    group.output = next.outputs[0];
    return true;
}

// Conv(Mul(x, gate)) where the Mul's output is read by the Conv alone, the Conv has no groups and the gate
// is one value per channel of x ([1 or N, C, 1, 1]): Conv(x * gate) is Conv(x) with W[:, c] scaled by gate[c].
void foldChannelGate(const Graph& graph, const Node& conv, FusionGroup& group, std::vector<bool>& claimed) {
    const ValueId product = conv.inputs[0];
    if (conv.intAttribute("group", 1) != 1 || !isPrivate(graph, product, 1)) return;
    if (std::count(conv.inputs.begin(), conv.inputs.end(), product) != 1) return;
    const NodeId producer = graph.value(product).producer;
    if (producer == kNoId || claimed[static_cast<size_t>(producer)]) return;
    const Node& mul = graph.node(producer);
    if (!isOnnxOp(mul, "Mul") || mul.inputs.size() != 2 || mul.outputs.size() != 1) return;
    auto known = [](const TensorType& t, size_t d, int64_t size) {
        return t.dims[d].known() && (size < 0 || t.dims[d].size == size);
    };
    for (int first = 0; first < 2; ++first) {
        const ValueId x = mul.inputs[static_cast<size_t>(first)], gate = mul.inputs[static_cast<size_t>(1 - first)];
        if (x == gate || !isFloatValue(graph, x) || !isFloatValue(graph, gate)) continue;
        const TensorType &xt = graph.value(x).type, &gt = graph.value(gate).type;
        if (!xt.hasShape || !gt.hasShape || xt.dims.size() != 4 || gt.dims.size() != 4) continue;
        if (!known(xt, 1, -1) || !known(gt, 1, xt.dims[1].size) || !known(gt, 2, 1) || !known(gt, 3, 1)) continue;
        if (gt.dims[0].known() && gt.dims[0].size != 1 && !(xt.dims[0].known() && xt.dims[0].size == gt.dims[0].size))
            continue;
        claimed[static_cast<size_t>(mul.id)] = true;
        group.gatedInput = x;
        group.inputGate = gate;
        group.gatedProduct = product;
        group.hidden.push_back(product);
        group.fused.push_back(mul.id);
        return;
    }
}

// The nodes a chain may hold.
bool isChainOp(const Node& node) {
    return isOnnxOp(node, "Add") || isOnnxOp(node, "Sub") || isOnnxOp(node, "Mul") || isOnnxOp(node, "Div") ||
           isOnnxOp(node, "Erf");
}

// A one-value float constant of rank at most `rank` (broadcasting it then keeps the other operand's shape).
bool isScalarConstant(const Graph& graph, ValueId id, size_t rank = std::numeric_limits<size_t>::max()) {
    const auto values = constantFloats(graph, id);
    const TensorType& t = graph.value(id).type;
    return values && values->size() == 1 && isFloatValue(graph, id) && (!t.hasShape || t.dims.size() <= rank);
}

// Per node: whether one of `groups` holds it.
std::vector<bool> nodesIn(const Graph& graph, const std::vector<FusionGroup>& groups) {
    std::vector<bool> in(graph.nodes().size(), false);
    for (const FusionGroup& group : groups) {
        in[static_cast<size_t>(group.anchor)] = true;
        for (NodeId n : group.fused) in[static_cast<size_t>(n)] = true;
    }
    return in;
}

// Whether `node` can follow `current` in a chain on `x`: Erf of it, or it with a scalar constant or x.
bool continuesChain(const Graph& graph, const Node& node, ValueId current, ValueId x, size_t rank) {
    if (!isChainOp(node) || node.outputs.size() != 1 || !isFloatValue(graph, node.outputs[0])) return false;
    if (isOnnxOp(node, "Erf")) return node.inputs.size() == 1 && node.inputs[0] == current;
    if (node.inputs.size() != 2) return false;
    const bool first = node.inputs[0] == current;
    if (!first && node.inputs[1] != current) return false;
    const ValueId other = node.inputs[first ? 1 : 0];
    return other == x || (other != current && isScalarConstant(graph, other, rank));
}

}  // namespace

std::vector<ElementwiseChain> findElementwiseChains(const Graph& graph, const std::vector<FusionGroup>& taken) {
    std::vector<bool> claimed = nodesIn(graph, taken);
    std::vector<ElementwiseChain> chains;
    for (const Node& node : graph.nodes()) {
        if (claimed[static_cast<size_t>(node.id)] || !isChainOp(node) || node.inputs.empty()) continue;
        // The chain's input: the operand that is not a scalar constant (Erf: its only one).
        ValueId x = node.inputs[0];
        if (node.inputs.size() == 2 && isScalarConstant(graph, x) && !isScalarConstant(graph, node.inputs[1]))
            x = node.inputs[1];
        const TensorType& type = graph.value(x).type;
        if (!isFloatValue(graph, x) || !type.hasShape || isScalarConstant(graph, x)) continue;
        const size_t rank = type.dims.size();
        if (!continuesChain(graph, node, x, kNoId, rank)) continue;
        ElementwiseChain chain{x, node.outputs[0], {node.id}, {}};
        while (isPrivate(graph, chain.output, 1)) {
            const Node& next = graph.node(graph.value(chain.output).consumers[0]);
            if (claimed[static_cast<size_t>(next.id)] || !continuesChain(graph, next, chain.output, x, rank)) break;
            chain.hidden.push_back(chain.output);
            chain.nodes.push_back(next.id);
            chain.output = next.outputs[0];
        }
        if (chain.nodes.size() < 2) continue;
        for (NodeId n : chain.nodes) claimed[static_cast<size_t>(n)] = true;
        chains.push_back(std::move(chain));
    }
    return chains;
}

std::vector<FusionGroup> findNormReluFusions(const Graph& graph, const std::vector<FusionGroup>& taken) {
    std::vector<bool> claimed = nodesIn(graph, taken);
    std::vector<FusionGroup> groups;
    for (const Node& node : graph.nodes()) {
        if (!isOnnxOp(node, "BatchNormalization") || claimed[static_cast<size_t>(node.id)]) continue;
        if (node.outputs.size() != 1 || node.intAttribute("training_mode", 0) != 0) continue;
        const ValueId x = node.outputs[0];
        if (node.inputs.empty() || !isFloatValue(graph, node.inputs[0]) || !isPrivate(graph, x, 1)) continue;
        const Node& relu = graph.node(graph.value(x).consumers[0]);
        if (!isOnnxOp(relu, "Relu") || claimed[static_cast<size_t>(relu.id)] || relu.outputs.size() != 1) continue;
        groups.push_back({node.id, {relu.id}, {PostOp{false, alg::eltwise_relu, 0, 0}}, kNoId, relu.outputs[0], {x}});
    }
    return groups;
}

std::vector<FusionGroup> findConvFusions(const Graph& graph) {
    std::vector<FusionGroup> groups;
    std::vector<bool> claimed(graph.nodes().size(), false);
    for (const Node& node : graph.nodes()) {
        if (!isOnnxOp(node, "Conv") || node.outputs.size() != 1 || node.inputs.empty()) continue;
        if (!isFloatValue(graph, node.inputs[0]) || !isFloatValue(graph, node.outputs[0])) continue;
        FusionGroup group;
        group.anchor = node.id;
        group.output = node.outputs[0];
        foldChannelGate(graph, node, group, claimed);
        while (extend(graph, group, claimed)) {
        }
        if (!group.fused.empty()) groups.push_back(std::move(group));
    }
    return groups;
}

}  // namespace ql
