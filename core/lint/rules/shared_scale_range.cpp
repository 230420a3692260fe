// trt-shared-scale-range: the inputs of a quantized Concat get one scale in TensorRT; inputs whose ranges differ by
// orders of magnitude then lose the small one (YOLO's pixel boxes and [0, 1] scores in one output tensor).
#include <cmath>
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/bounded_codes.h"
#include "core/lint/rules/rules.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-shared-scale-range", Severity::Warning, kAllTrtVersions,
    "TensorRT quantizes a Concat's inputs and output with one scale (it moves the QuantizeLinear after the Concat "
    "onto every input; NVIDIA's Model Optimizer gives them one scale on purpose). When the inputs' ranges differ by "
    "orders of magnitude, that scale is set by the largest and the small input keeps only a few levels or rounds to "
    "0: a YOLO output that concatenates boxes in pixels (0-640) with sigmoid scores (0-1) gets a step of 640/127 = "
    "5, so every score rounds to 0 and the detector finds nothing. Keep such a Concat out of INT8, or normalize the "
    "inputs to comparable ranges before it (Ultralytics divides the boxes by the image size). The ranges are the "
    "inputs' Q/DQ scales, else a calibration's (--calib); without either, a Concat of Sigmoid scores with values no "
    "Sigmoid bounds is reported as the likely trap. Silent for a Concat that is not quantized, for inputs within "
    "100x of the largest, and for an input bounded by construction that trt-bounded-range-codes reports (it says "
    "how many codes the input keeps under the scale, from the bound the graph guarantees).",
    "ultralytics/ultralytics#1695 and #25524 (one scale for boxes and scores); NVIDIA-AI-IOT/yolo_deepstream "
    "Guidance_of_QAT_performance_optimization.md; TensorRT Model Optimizer int8.py concat_elimination"};

// Inputs whose range is below the shared one by this factor keep fewer than 127/100 ~ 1 level.
constexpr float kRangeRatio = 100.0f;

std::optional<float> scalarScale(const Graph& graph, const Node& qdq) {
    const auto scales = qdqScales(graph, qdq);
    if (!scales || scales->size() != 1 || !(scales->front() > 0.0f)) return std::nullopt;
    return scales->front();
}

// The amax an input of the Concat carries: its DequantizeLinear's scale * 127, else its calibrated range.
std::optional<float> inputAmax(const LintContext& context, ValueId in) {
    const Node* p = context.producer(in);
    if (p != nullptr && isOp(*p, "DequantizeLinear"))
        if (auto s = scalarScale(context.graph(), *p)) return *s * 127.0f;
    if (const CalibrationDiagnosis* calibration = context.calibration())
        if (auto it = calibration->calibratedAmax.find(in); it != calibration->calibratedAmax.end()) return it->second;
    return std::nullopt;
}

// Whether the Concat is quantized: a QuantizeLinear reads its output, or the plan runs it INT8 with quantized inputs.
bool quantizedConcat(const LintContext& context, const Node& node, float& outputAmax) {
    outputAmax = 0.0f;
    bool quantized = context.int8Planned(node.id);
    for (NodeId c : context.graph().value(node.outputs[0]).consumers) {
        const Node& consumer = context.graph().node(c);
        if (!isOp(consumer, "QuantizeLinear")) continue;
        quantized = true;
        if (auto s = scalarScale(context.graph(), consumer)) outputAmax = std::max(outputAmax, *s * 127.0f);
    }
    return quantized;
}

class SharedScaleRangeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        // An input bounded by construction that the shared scale crushes is trt-bounded-range-codes' finding, with
        // the bound the graph guarantees rather than a measured range: one Concat input, one finding (unless that
        // rule is ignored).
        std::set<ValueId> crushed;
        if (context.runs("trt-bounded-range-codes"))
            for (const CrushedTensor& t : crushedBoundedTensors(context, context.staticRanges()))
                crushed.insert(t.value);
        for (const Node& node : context.graph().nodes()) {
            if (!isOp(node, "Concat") || node.outputs.empty() || node.outputs[0] == kNoId) continue;
            float shared = 0.0f;
            if (!quantizedConcat(context, node, shared)) continue;
            std::vector<std::pair<ValueId, float>> ranges;
            for (ValueId in : node.inputs)
                if (auto a = inputAmax(context, in); a && *a > 0.0f) {
                    ranges.emplace_back(in, *a);
                    shared = std::max(shared, *a);
                }
            if (ranges.size() < 2) {
                checkUnmeasured(context, node, crushed, findings);
                continue;
            }
            for (const auto& [in, amax] : ranges) {
                if (amax * kRangeRatio > shared || crushed.contains(context.throughQdq(in))) continue;
                const float step = shared / 127.0f;
                findings.push_back(context.finding(
                    kInfo, node, Severity::Warning,
                    lintText("input '", context.graph().value(in).name, "' spans +-", amax,
                             " but shares the Concat's scale of +-", shared, " (step ", step, "): it keeps ",
                             std::lround(amax / step), " of 127 levels and values below ", step / 2, " round to 0"),
                    "keep this Concat (and its output) in FP16, or scale its inputs to comparable ranges before it"));
            }
        }
    }

private:
    // Without Q/DQ or a calibration the ranges are unknown, but a Concat of Sigmoid scores (0 to 1) with values no
    // Sigmoid bounds (a YOLO decode's pixel boxes) is the trap itself: say so and ask for the ranges.
    static void checkUnmeasured(const LintContext& context, const Node& node, const std::set<ValueId>& crushed,
                                std::vector<Finding>& findings) {
        const Graph& graph = context.graph();
        std::string scores, unbounded;
        for (ValueId in : node.inputs) {
            const Node* p = in == kNoId ? nullptr : computingProducer(graph, in);
            if (p == nullptr || crushed.contains(in)) continue;
            std::string& list = p->opType == "Sigmoid" ? scores : unbounded;
            list += lintText(list.empty() ? "'" : ", '", graph.value(in).name, "'");
        }
        if (scores.empty() || unbounded.empty()) return;
        findings.push_back(context.finding(
            kInfo, node, Severity::Warning,
            lintText("Sigmoid scores ", scores, " (0 to 1) are concatenated with ", unbounded,
                     ", which no Sigmoid bounds (a detector's boxes in pixels?), under one INT8 scale: the scores "
                     "keep only the levels the largest input leaves them (0 of 127 for boxes up to 640 px)"),
            "keep this Concat in FP16 (QuantLens' default plan does for YOLO heads), or run lint --calib CALIB.json "
            "to measure the ranges"));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeSharedScaleRangeRule() {
    return std::make_unique<SharedScaleRangeRule>();
}

}  // namespace ql::rules
