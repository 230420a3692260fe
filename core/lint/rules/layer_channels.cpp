#include "core/lint/rules/layer_channels.h"

#include "core/model/matrix_product_shape.h"

#include <algorithm>
#include <set>

#include "core/model/attention_pattern.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

// A first layer's input channels TensorRT pads to one group of 4 (kCHW4), whatever they are.
constexpr int64_t kFirstLayerChannels = 4;
// How many nodes the walk to the model outputs looks at before it gives up (a head's output is near them).
constexpr int kOutputSearch = 64;
// How many producers the walk back to the model inputs looks at before it gives up (a first layer is near them).
constexpr int kFirstLayerSearch = 64;

// The layer reads a model input (through Q/DQ and data movement).
bool readsModelInput(const LintContext& context, const Node& node) {
    const ValueId source = context.throughQdq(node.inputs[0]);
    if (source == kNoId) return false;
    if (context.graph().value(source).isGraphInput) return true;
    const Node* p = computingProducer(context.graph(), source);
    return p == nullptr && !isConstant(context.graph(), source);
}

// No weighted layer computes the layer's input: every path back from it ends at a model input or a constant,
// through preprocessing (a normalization, a Concat of RGB and depth, a Transpose from NHWC).
bool isFirstLayer(const LintContext& context, const Node& node) {
    const Graph& graph = context.graph();
    std::vector<ValueId> pending = {node.inputs[0]};
    std::set<NodeId> seen;
    while (!pending.empty()) {
        const ValueId value = pending.back();
        pending.pop_back();
        if (value == kNoId || isConstant(graph, value)) continue;
        const NodeId p = graph.value(value).producer;
        if (p == kNoId || !seen.insert(p).second) continue;
        const Node& producer = graph.node(p);
        if (isWeightedLayer(producer) || static_cast<int>(seen.size()) > kFirstLayerSearch) return false;
        pending.insert(pending.end(), producer.inputs.begin(), producer.inputs.end());
    }
    return true;
}

int64_t lastDim(const std::vector<int64_t>& d) {
    return d.empty() ? -1 : d.back();
}

std::optional<LayerChannels> countsOf(const LintContext& context, const Node& node) {
    const std::vector<int64_t> w = context.dims(node.inputs[1]);
    if (isOp(node, "Conv") || isOp(node, "ConvTranspose")) {
        if (w.size() < 3) return std::nullopt;
        const int64_t group = std::max<int64_t>(node.intAttribute("group", 1), 1);
        // Conv weights are [K, C/group, ...], ConvTranspose weights [C, K/group, ...].
        if (isOp(node, "Conv")) return LayerChannels{w[1], w[0] < 0 ? -1 : w[0] / group, group};
        return LayerChannels{w[0] < 0 ? -1 : w[0] / group, w[1], group};
    }
    if (isOp(node, "Gemm")) {
        if (w.size() != 2) return std::nullopt;
        return node.intAttribute("transB", 0) ? LayerChannels{w[1], w[0]} : LayerChannels{w[0], w[1]};
    }
    const std::vector<int64_t> a = context.dims(node.inputs[0]);
    if (a.empty() || w.size() < 2) return std::nullopt;
    if (isComputedValue(context.graph(), node.inputs[1])) return std::nullopt;  // attention's batched products
    return LayerChannels{lastDim(a), lastDim(w)};
}

}  // namespace

bool LayerChannels::small() const {
    return (checksC() && c < kInt8MinChannels) || (k >= 0 && k < kInt8MinChannels);
}

std::optional<LayerChannels> layerChannels(const LintContext& context, const Node& node) {
    if (!isWeightedLayer(node) || node.inputs.size() < 2 || node.inputs[0] == kNoId) return std::nullopt;
    auto channels = countsOf(context, node);
    if (channels && channels->c >= 0 && channels->c % 16 != 0)
        channels->imageInput =
            readsModelInput(context, node) || (channels->c <= kFirstLayerChannels && isFirstLayer(context, node));
    return channels;
}

bool computesModelOutput(const LintContext& context, const Node& node) {
    const Graph& graph = context.graph();
    std::vector<ValueId> pending(node.outputs.begin(), node.outputs.end());
    std::vector<NodeId> seen;  // at most kOutputSearch: a linear search beats a tree, once per layer of the model
    while (!pending.empty()) {
        const ValueId value = pending.back();
        pending.pop_back();
        if (value == kNoId) continue;
        if (graph.value(value).isGraphOutput) return true;
        for (const NodeId c : graph.value(value).consumers) {
            if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
            seen.push_back(c);
            if (static_cast<int>(seen.size()) > kOutputSearch) return false;
            const Node& consumer = graph.node(c);
            if (!isWeightedLayer(consumer))
                pending.insert(pending.end(), consumer.outputs.begin(), consumer.outputs.end());
        }
    }
    return false;
}

bool isMatrixVectorProduct(const LintContext& context, const Node& node) {
    return matrixProductShape(context.graph(), node).matrixVector();
}

}  // namespace ql::rules
