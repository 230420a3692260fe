// trt-int8-small-layer: layers too small for INT8 to pay off, by NVIDIA Model Optimizer's placement thresholds.
#include <algorithm>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-small-layer", Severity::Info, kAllTrtVersions,
    "NVIDIA's Model Optimizer leaves layers unquantized when they are too small for INT8 to pay off: a convolution "
    "with fewer than 16 input or output channels (kept in INT8 only with a square kernel when one channel count is a "
    "multiple of 8 and the layer is the first of the network or the other count is at least 16; a grouped "
    "convolution only when its output channels are a multiple of 8 and its kernel is at least 3x3), and a MatMul or "
    "Gemm whose reduction size K or output columns N is below 16. The Q/DQ around such a layer cost more than its "
    "INT8 kernel saves. Layers that trt-int8-channel-alignment or trt-int8-gemv already report are not repeated here.",
    "TensorRT Model Optimizer modelopt/onnx/quantization/graph_utils.py (find_nodes_from_convs_to_exclude, "
    "find_nodes_from_matmul_to_exclude) and int8.py"};

bool isGraphInput(const Graph& graph, ValueId id) {
    return std::find(graph.inputs().begin(), graph.inputs().end(), id) != graph.inputs().end();
}

// Why Model Optimizer would not quantize this Conv; empty when it would.
std::string convVerdict(const LintContext& context, const Node& node, bool& reportedElsewhere) {
    const std::vector<int64_t> w = context.dims(node.inputs[1]);
    if (w.size() < 3) return {};
    const int64_t oc = w[0];
    const int64_t ic = w[1];  // per group
    if (oc < 0 || ic < 0 || (oc >= 16 && ic >= 16)) return {};
    const int64_t group = node.intAttribute("group", 1);
    bool squareAndBig = true;
    bool square = true;
    for (size_t i = 2; i < w.size(); ++i) {
        squareAndBig = squareAndBig && w[i] >= 3;
        square = square && w[i] == w[2];
    }
    if (group == 1) {
        // trt-int8-channel-alignment reports a count below 16, which is never a multiple of 16.
        reportedElsewhere = true;
        const bool first = isGraphInput(context.graph(), context.throughQdq(node.inputs[0]));
        const bool kept = square && ((oc % 8 == 0 && (first || ic >= 16)) || (ic % 8 == 0 && (first || oc >= 16)));
        if (kept) return {};
    } else if (oc % 8 == 0 && squareAndBig) {
        return {};
    }
    return lintText(node.opType, " with ", ic, group > 1 ? " input channels per group" : " input channels", " and ", oc,
                    " output channels", group > 1 ? lintText(" (group ", group, ")") : "");
}

// Why Model Optimizer would not quantize this MatMul/Gemm; empty when it would.
std::string matmulVerdict(const LintContext& context, const Node& node, bool& reportedElsewhere) {
    const std::vector<int64_t> a = context.dims(node.inputs[0]);
    const std::vector<int64_t> b = context.dims(node.inputs[1]);
    int64_t k = -1;
    int64_t n = -1;
    int64_t m = -1;
    if (isOp(node, "Gemm")) {
        if (b.size() != 2) return {};
        const bool transB = node.intAttribute("transB", 0) != 0;
        k = transB ? b[1] : b[0];
        n = transB ? b[0] : b[1];
        if (a.size() == 2) m = node.intAttribute("transA", 0) ? a[1] : a[0];
    } else {
        if (a.empty() || b.empty()) return {};
        k = a.back();
        n = b.size() >= 2 ? b.back() : 1;
        m = a.size() >= 2 ? a[a.size() - 2] : 1;
    }
    if (k < 0 || n < 0 || (k >= 16 && n >= 16)) return {};
    // trt-int8-gemv reports M or N = 1; trt-int8-channel-alignment any K or N not a multiple of 16 (any below 16).
    if (m == 1 || n == 1 || b.size() >= 2 || isOp(node, "Gemm")) reportedElsewhere = true;
    return lintText(node.opType, " with K=", k, " and N=", n);
}

class Int8SmallLayerRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        for (const Node& node : context.graph().nodes()) {
            if (node.inputs.size() < 2 || !context.int8Planned(node.id)) continue;
            bool reportedElsewhere = false;
            std::string what;
            if (isOp(node, "Conv"))
                what = convVerdict(context, node, reportedElsewhere);
            else if (isOp(node, "MatMul") || isOp(node, "Gemm"))
                what = matmulVerdict(context, node, reportedElsewhere);
            if (what.empty() || reportedElsewhere) continue;
            findings.push_back(
                context.finding(kInfo, node, Severity::Info,
                                lintText("INT8 ", what,
                                         " is below Model Optimizer's size threshold (16): the Q/DQ around it cost "
                                         "more than its INT8 kernel saves"),
                                "keep this layer in FP16 (no Q/DQ on its inputs), as Model Optimizer does"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8SmallLayerRule() {
    return std::make_unique<Int8SmallLayerRule>();
}

}  // namespace ql::rules
