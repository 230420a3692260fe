// calib-outlier-channels: a few channels of a quantized activation have ranges that dwarf the others', and the
// activation gets one INT8 scale.
#include <cmath>
#include <cstdio>

#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-outlier-channels", Severity::Warning, kAllTrtVersions,
    "In the calibration, the largest channel range (max |x| per channel, on the axis the quantizing layer reduces "
    "over: 1 for a Conv input, the last for a MatMul input) of this tensor is at least 100x the median channel's, "
    "while TensorRT gives an activation one INT8 scale for all its channels. The scale fits the widest channels, so "
    "the median channel is left about 1.3 INT8 steps or fewer and mostly rounds to 0 (or, when the calibration clips "
    "the outliers instead, those channels saturate): the finding gives the ratio, the channels, and the SQNR the "
    "median "
    "channel loses to the shared scale (its values spread evenly over its range: 20 log10(amax / median range), at "
    "most the 48.1 dB of its own scale). Trained networks grow such channels: YOLO-Master v0.1-m's INT8 engine fell "
    "to mAP 0.098 from channel range ratios up to 19,589 on MoE expert SiLU and Conv outputs; keeping two groups of "
    "those layers in higher precision brought 0.506, SmoothQuant did not help. Stays silent below 100x, on tensors "
    "the plan does not quantize, and on calibrations without channel ranges (files written before they existed, "
    "tensors of rank < 2 or with more than 4096 channels). Fixes: keep the layers that quantize the tensor in FP16 "
    "(what recovered YOLO-Master). TensorRT has no per-channel scale for an activation, only for weights, so where "
    "the tensor is the output of a Conv, Gemm, MatMul or normalization layer with constant parameters (directly or "
    "through a Relu / LeakyRelu, which commute with a positive scale) and only layers with constant weights per input "
    "channel (Conv, Gemm, MatMul) read it, the finding also "
    "offers to move the outliers' range into the two layers' weights (cross-layer equalization), an exact rewrite "
    "of the model there; after a SiLU or an addition it is not offered.",
    "Tencent/YOLO-Master PR #300 (INT8 channel range ratio 19,589, mAP 0.098; recovered by pinning, not by "
    "SmoothQuant); TensorRT Developer Guide, "
    "\"Working with Quantized Types\" (INT8: activations per tensor, weights per tensor or per channel) and NvInfer.h "
    "IQuantizeLayer (see trt-qdq-activation-per-channel); Nagel et al., \"Data-Free Quantization Through Weight "
    "Equalization and Bias Correction\", ICCV 2019 (cross-layer equalization); Xiao et al., \"SmoothQuant\", ICML 2023 "
    "(activation outlier channels migrated into the weights); Dettmers et al., \"LLM.int8()\", 2022 (outlier "
    "features)"};

std::string number(const char* pattern, double value) {
    char text[48];
    std::snprintf(text, sizeof(text), pattern, value);
    return text;
}

// "channel 7", "channels 7, 3 and 12", "channels 7, 3, ... (20 in all)".
std::string channelsText(const ChannelSpread& s) {
    if (s.outliers.size() == 1) return lintText("channel ", s.outliers.front());
    std::string text = "channels ";
    for (size_t i = 0; i < s.outliers.size(); ++i) {
        const bool last = i + 1 == s.outliers.size() && static_cast<int64_t>(s.outliers.size()) == s.outlierCount;
        text += lintText(i == 0 ? "" : last ? " and " : ", ", s.outliers[i]);
    }
    if (s.outlierCount > static_cast<int64_t>(s.outliers.size()))
        text += lintText(", ... (", s.outlierCount, " in all)");
    return text;
}

bool isDefaultOp(const Node& node, std::string_view opType) {
    return isDefaultDomain(node) && node.opType == opType;
}

bool hasConstantInput(const Graph& graph, const Node& node, size_t slot) {
    return node.inputs.size() > slot && node.inputs[slot] != kNoId && isConstant(graph, node.inputs[slot]);
}

// A layer that reads `value` as its data input and holds one constant weight slice per input channel on `axis` (of
// the value): scaling that slice compensates a scale of the channel.
bool weightsPerInputChannel(const Graph& graph, const Node& node, ValueId value, int64_t axis, int64_t rank) {
    if (node.inputs.empty() || node.inputs[0] != value || !hasConstantInput(graph, node, 1)) return false;
    if (isDefaultOp(node, "Conv") || isDefaultOp(node, "ConvTranspose")) return axis == 1;
    if (isDefaultOp(node, "MatMul")) return axis == rank - 1;
    if (isDefaultOp(node, "Gemm")) return node.intAttribute("transA", 0) == 0 && axis == 1;
    return false;
}

// The layer whose output channels are `tensor`'s channels, with constant per-channel parameters to scale (a weighted
// layer, BatchNormalization or LayerNormalization), seen through one Relu or LeakyRelu (they commute with a positive
// scale), when every reader of the tensor compensates it in its weights (weightsPerInputChannel) and nothing else
// reads the values in between: the one place a per-channel scale of this tensor can live in TensorRT.
const Node* equalizableProducer(const Graph& graph, ValueId tensor, int64_t axis) {
    const Value& v = graph.value(tensor);
    if (!v.type.hasShape || v.isGraphOutput || v.producer == kNoId || v.consumers.empty()) return nullptr;
    const auto rank = static_cast<int64_t>(v.type.dims.size());
    for (NodeId c : v.consumers)
        if (!weightsPerInputChannel(graph, graph.node(c), tensor, axis, rank)) return nullptr;
    const Node* producer = &graph.node(v.producer);
    if (isDefaultOp(*producer, "Relu") || isDefaultOp(*producer, "LeakyRelu")) {
        const ValueId in = producer->inputs.empty() ? kNoId : producer->inputs[0];
        if (in == kNoId || graph.value(in).consumers.size() != 1 || graph.value(in).isGraphOutput ||
            graph.value(in).producer == kNoId)
            return nullptr;
        producer = &graph.node(graph.value(in).producer);
    }
    const bool channelsFirst = isDefaultOp(*producer, "Conv") || isDefaultOp(*producer, "ConvTranspose") ||
                               isDefaultOp(*producer, "BatchNormalization");
    const bool channelsLast = isDefaultOp(*producer, "MatMul") || isDefaultOp(*producer, "Gemm") ||
                              isDefaultOp(*producer, "LayerNormalization");
    if (!(channelsFirst && axis == 1) && !(channelsLast && axis == rank - 1)) return nullptr;
    if (!hasConstantInput(graph, *producer, 1)) return nullptr;
    if (isDefaultOp(*producer, "Gemm") && producer->intAttribute("transA", 0) != 0) return nullptr;
    return producer;
}

std::string layerNames(const Graph& graph, const std::vector<NodeId>& layers) {
    std::string text;
    for (size_t i = 0; i < layers.size(); ++i)
        text += lintText(i == 0 ? "" : i + 1 == layers.size() ? " and " : ", ", "'", graph.node(layers[i]).name, "'");
    return text;
}

std::string planNodes(const Graph& graph, const std::vector<NodeId>& layers) {
    std::string text = "\"nodes\": {";
    for (size_t i = 0; i < layers.size(); ++i)
        text += lintText(i == 0 ? "" : ", ", "\"", graph.node(layers[i]).name, "\": \"fp16\"");
    return text + "}";
}

class CalibOutlierChannelsRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        if (!diagnosis) return;
        const Graph& graph = context.graph();
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            if (!t.channels || t.channels->ratio < DiagnosisThresholds::kOutlierChannelRatio) continue;
            const ChannelSpread& s = *t.channels;
            std::string message =
                lintText("tensor '", t.tensor, "': ", channelsText(s), " (axis ", s.axis, ") ",
                         s.outlierCount == 1 ? "reaches " : "reach up to ", number("%.0f", s.ratio),
                         "x the median channel's range (max |x| ", number("%.4g", s.largest), " against ",
                         number("%.4g", s.median), ", ", s.channels, " channels); under its one scale, ",
                         inUseText(t, diagnosis->config), ", the median channel spans ", number("%.2g", s.medianSteps),
                         " INT8 steps", s.medianSteps < 0.5 ? " and rounds to 0" : "", ": ", decibelText(s.sqnrLossDb),
                         " below the SQNR a scale of its own would give it");
            if (s.clippedChannels > 0)
                message += lintText(", and ", s.clippedChannels,
                                    s.clippedChannels == 1 ? " channel clips" : " channels clip", " at amax");
            const std::vector<NodeId>& layers = t.layers.empty() ? std::vector<NodeId>{t.layer} : t.layers;
            std::string fix = lintText("keep ", layerNames(graph, layers), " in FP16 (", planNodes(graph, layers),
                                       " in the plan): no INT8 scale is then needed for this tensor");
            const Node* producer = equalizableProducer(graph, t.value, s.axis);
            if (producer)
                fix += lintText(
                    "; or, since TensorRT takes per-channel scales for weights only (never for an "
                    "activation), move the outliers' range into the weights: divide output ",
                    channelsText(s), " of '", producer->name, "' (",
                    isWeightedLayer(*producer) ? "its weights and bias" : "its scale and bias",
                    ") by k and multiply the weights reading those input channels in ", layerNames(graph, layers),
                    " by k, k up to each channel's ratio to the median (cross-layer equalization; "
                    "SmoothQuant takes its square root, ~",
                    number("%.0f", std::sqrt(s.ratio)),
                    ", to share the range between the activation and the weights), then re-export");
            else
                fix +=
                    "; TensorRT has no per-channel scale for an activation, so no Q/DQ of this tensor can separate "
                    "its channels";
            findings.push_back(tensorFinding(context, kInfo, t, Severity::Warning, std::move(message), std::move(fix)));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibOutlierChannelsRule() {
    return std::make_unique<CalibOutlierChannelsRule>();
}

}  // namespace ql::rules
