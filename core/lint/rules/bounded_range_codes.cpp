// trt-bounded-range-codes: a tensor bounded by construction (Sigmoid scores in [0, 1]) quantized with a scale set
// for something else (a Concat shared with pixel boxes) keeps one or a few INT8 codes; known without calibration.
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/lint/lint_context.h"
#include "core/lint/rules/bounded_codes.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-bounded-range-codes", Severity::Error, kAllTrtVersions,
    "Some tensors are bounded by construction, whatever the input: a Sigmoid's, Softmax's or HardSigmoid's output "
    "lies in [0, 1], a Tanh's in [-1, 1], a Clip's (Relu6's) between its limits, a Cast from bool is 0 or 1, a "
    "constant between its min and max; data movement (Reshape, Transpose, Slice, Gather, Concat, MaxPool, Resize, "
    "Pad), Q/DQ pairs, Relu and arithmetic with constants keep the bound (core/quant/static_ranges.h). Quantized with "
    "a scale set for something else, such a tensor keeps few of the 256 INT8 codes: a YOLO output whose Sigmoid "
    "scores share the Q/DQ scale of pixel boxes (640/127 = 5.04) rounds every score to 0, and the detector finds "
    "nothing. The rule needs no calibration: it reads the bound from the graph and the scale from the per-tensor "
    "QuantizeLinear that quantizes the tensor (its own, or the one after a Concat it enters, which TensorRT moves "
    "onto the Concat's inputs); on a float model linted with --calib, from the scale QuantLens' export gives the "
    "inputs of a Concat the plan runs INT8 (the largest calibrated amax of the Concat, / 127). Error when every "
    "value of the tensor rounds to one code; warning when it keeps fewer than 8 codes (under 3 bits). Silent when "
    "the graph does not bound the tensor (a Conv's or a Relu's output: the calib-* rules judge those), when its "
    "bound keeps 8 codes or more, for per-channel, FP8, INT4 and INT16 quantization, for a tensor whose bound is "
    "one value or that is computed from constants alone (a weight; a ViT's class token concatenated with the "
    "patches shares their step like their own small values), and on a float model without --calib (no scale yet: "
    "trt-shared-scale-range asks for the ranges). "
    "trt-shared-scale-range leaves the Concat inputs this rule reports to it.",
    "ultralytics/ultralytics#1695 and #25524 (all-zero class scores under the box scale); ONNX QuantizeLinear "
    "(round half to even, then saturate); TensorRT Developer Guide, Explicit Quantization (Q/DQ propagation across "
    "Concat)"};

// Three significant digits: "5.04", "0.00787", "640".
std::string shortNumber(double x) {
    std::ostringstream out;
    out << std::setprecision(3) << x;
    return out.str();
}

std::string rangeText(const Graph& graph, const CrushedTensor& t) {
    std::string text = lintText("bounded to [", shortNumber(t.range.lo), ", ", shortNumber(t.range.hi), "]");
    if (t.range.bounder != kNoId) {
        const Node& by = graph.node(t.range.bounder);
        text += lintText(" by ", by.opType, " '", by.name, "'");
    }
    return text;
}

// Where the scale comes from.
std::string scaleSource(const CrushedTensor& t) {
    if (t.concat == nullptr) return lintText(" of QuantizeLinear '", t.quantize->name, "'");
    if (t.quantize == nullptr)
        return lintText(", the one scale QuantLens' export gives the inputs of INT8 Concat '", t.concat->name,
                        "' (its largest calibrated amax, ", shortNumber(t.concatAmax), ")");
    return lintText(", the scale of QuantizeLinear '", t.quantize->name, "' after Concat '", t.concat->name,
                    "', which TensorRT moves onto the Concat's inputs");
}

// The Concat a tensor's own Q/DQ pair feeds, whose scale it was likely given to match (trt-concat-scales).
const Node* concatFed(const LintContext& context, const CrushedTensor& t) {
    if (t.concat != nullptr) return t.concat;
    const Graph& graph = context.graph();
    for (ValueId q : t.quantize->outputs)
        for (NodeId dq : q == kNoId ? std::vector<NodeId>{} : graph.value(q).consumers)
            for (ValueId d : graph.node(dq).outputs)
                for (NodeId c : d == kNoId ? std::vector<NodeId>{} : graph.value(d).consumers)
                    if (isOp(graph.node(c), "Concat")) return &graph.node(c);
    return nullptr;
}

class BoundedRangeCodesRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        const StaticRanges& ranges = context.staticRanges();
        for (const CrushedTensor& t : crushedBoundedTensors(context, ranges)) {
            const std::string& name = graph.value(t.value).name;
            const std::string scale = shortNumber(t.scale);
            std::string message;
            if (t.codes == 1 && t.lowCode == t.zeroPoint) {
                message = lintText("every value of '", name, "' (", rangeText(graph, t), ") rounds to 0 at scale ",
                                   scale, scaleSource(t));
            } else if (t.codes == 1) {
                message = lintText("every value of '", name, "' (", rangeText(graph, t), ") rounds to one code, ",
                                   t.lowCode, " (", shortNumber((t.lowCode - t.zeroPoint) * double{t.scale}),
                                   "), at scale ", scale, scaleSource(t));
            } else {
                message = lintText("'", name, "' (", rangeText(graph, t), ") keeps only ", t.codes, " of ", t.levels,
                                   " codes at scale ", scale, scaleSource(t), ": values less than ", scale,
                                   " apart become one");
            }
            const double amax = std::max(std::fabs(t.range.lo), std::fabs(t.range.hi));
            const Node* concat = concatFed(context, t);
            const std::string fix =
                concat != nullptr
                    ? lintText("keep Concat '", concat->name,
                               "' in FP16 (no Q/DQ on its inputs or output), or bring its inputs to comparable "
                               "ranges before it (Ultralytics divides the boxes by the image size)")
                    : lintText("quantize '", name, "' with a scale from its bound: amax ", shortNumber(amax), " gives ",
                               shortNumber(amax / 127.0), " (amax / 127)");
            Finding f = context.finding(kInfo, t.concat != nullptr ? *t.concat : *t.quantize,
                                        t.codes == 1 ? Severity::Error : Severity::Warning, std::move(message), fix);
            f.tensor = name;
            findings.push_back(std::move(f));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeBoundedRangeCodesRule() {
    return std::make_unique<BoundedRangeCodesRule>();
}

}  // namespace ql::rules
