// trt-int8-channel-alignment: INT8 tensor-core kernels want channel counts that are multiples of 16.
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/attention_pattern.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-channel-alignment", Severity::Warning, kAllTrtVersions,
    "TensorRT's INT8 tensor-core kernels process channels in blocks of 16 (32 on some GPUs). A convolution or matrix "
    "multiply whose input channels (C) or output channels (K) are not a multiple of 16 is padded, so INT8 may be no "
    "faster than FP16 for it while still costing accuracy. It still builds and runs. The first layer of an image "
    "model reads 1 to 4 channels (grayscale, RGB, RGBA, RGB + depth), through preprocessing or not: TensorRT pads them "
    "(its INT8 CHW4 format holds channels in groups of 4) and NVIDIA's placement quantizes that layer anyway, so only "
    "its output channels are checked (as for any layer that reads a model input directly); "
    "and a MatMul of two computed tensors (attention's Q x K^T, P x V) has no channels: its sizes are sequence "
    "lengths and head sizes, which trt-int8-attention-shape checks.",
    "NVIDIA TensorRT Engine Explorer (TREx) linters: \"INT8 convolution ... C and K divisible by 16\"; NVIDIA Model "
    "Optimizer int8.py and graph_utils.py (the first conv is kept INT8 whatever its input channels); TensorRT API "
    "nvinfer1::TensorFormat::kCHW4 (INT8, channels padded to a multiple of 4)"};

// A first layer's input channels TensorRT pads to one group of 4 (kCHW4), whatever they are.
constexpr int64_t kFirstLayerChannels = 4;
// How many producers the walk back to the model inputs looks at before it gives up (a first layer is near them).
constexpr int kFirstLayerSearch = 64;

// The layer reads a model input (through Q/DQ and data movement): the image's 1 or 3 channels are exempt.
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

// Input channels the rule does not check: a layer that reads a model input, or a first layer of 1 to 4 channels.
bool exemptInputChannels(const LintContext& context, const Node& node, int64_t c) {
    return readsModelInput(context, node) || (c <= kFirstLayerChannels && isFirstLayer(context, node));
}

struct Channels {
    int64_t c = -1;  // input channels / reduction size
    int64_t k = -1;  // output channels / columns
};

int64_t at(const std::vector<int64_t>& d, size_t i) {
    return i < d.size() ? d[i] : -1;
}

std::optional<Channels> channelsOf(const LintContext& context, const Node& node) {
    const std::vector<int64_t> a = context.dims(node.inputs[0]);
    const std::vector<int64_t> w = context.dims(node.inputs[1]);
    if (isOp(node, "Conv") || isOp(node, "ConvTranspose")) {
        if (node.intAttribute("group", 1) != 1 || w.size() < 3) return std::nullopt;  // grouped: other rule
        return isOp(node, "Conv") ? Channels{w[1], w[0]} : Channels{w[0], w[1]};
    }
    if (isOp(node, "Gemm")) {
        if (w.size() != 2) return std::nullopt;
        return node.intAttribute("transB", 0) ? Channels{w[1], w[0]} : Channels{w[0], w[1]};
    }
    if (a.empty() || w.size() < 2) return std::nullopt;                         // MatMul
    if (isComputedValue(context.graph(), node.inputs[1])) return std::nullopt;  // attention's batched products
    return Channels{at(a, a.size() - 1), at(w, w.size() - 1)};
}

class Int8ChannelAlignmentRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (!isWeightedLayer(node) || node.inputs.size() < 2 || !context.int8Planned(node.id)) continue;
            const auto ch = channelsOf(context, node);
            if (!ch || ch->c < 0 || ch->k < 0) continue;
            std::string odd;
            if (ch->c % 16 != 0 && !exemptInputChannels(context, node, ch->c)) odd = lintText("C=", ch->c);
            if (ch->k % 16 != 0) odd += lintText(odd.empty() ? "" : " and ", "K=", ch->k);
            if (odd.empty()) continue;
            findings.push_back(context.finding(
                kInfo, node, Severity::Warning,
                lintText("INT8 ", node.opType, " with ", ch->c, " input and ", ch->k, " output channels: ", odd,
                         " not a multiple of 16, so the INT8 kernel is padded and may be no faster than FP16"),
                "measure this layer in FP16 and INT8 and keep the faster one, or pad the channels to a multiple of "
                "16"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8ChannelAlignmentRule() {
    return std::make_unique<Int8ChannelAlignmentRule>();
}

}  // namespace ql::rules
