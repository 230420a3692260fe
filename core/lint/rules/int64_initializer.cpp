// trt-int64-initializer: TensorRT <= 8.6 casts INT64 constants to INT32 and clamps what does not fit.
#include <limits>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/constant_values.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int64-initializer", Severity::Warning, kTrt86Only,
    "TensorRT 8.6 and earlier have no 64-bit integers: the ONNX parser casts every INT64 constant to INT32 and clamps "
    "values outside the INT32 range to +-2147483647. Slice starts/ends of +-(2^63-1) are PyTorch's way of writing "
    "\"to the end\" and survive the clamp; any other out-of-range value (indices, masks, ids) silently changes. "
    "When every INT64 constant fits INT32, the parser's \"Your ONNX model has been generated with INT64 weights ... "
    "Attempting to cast down to INT32\" warning is harmless. TensorRT 9.0 and later keep INT64.",
    "onnx-tensorrt 8.6-GA onnx2trt_utils.cpp convertINT64 (\"Attempting to cast down to INT32\"); onnx-tensorrt "
    "Changelog 9.0 (\"The ONNX parser no longer automatically casts INT64 to INT32\")"};

bool outOfInt32(int64_t v) {
    return v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min();
}

// INT64_MAX, INT64_MIN and -INT64_MAX: "to the end" / "from the start" bounds in Slice.
bool isSliceSentinel(int64_t v) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    return v == kMax || v == -kMax || v == std::numeric_limits<int64_t>::min();
}

bool onlySliceBounds(const Graph& graph, ValueId id) {
    for (NodeId consumer : graph.value(id).consumers) {
        const Node& node = graph.node(consumer);
        if (!isOp(node, "Slice")) return false;
        for (size_t slot = 0; slot < node.inputs.size(); ++slot)
            if (node.inputs[slot] == id && slot != 1 && slot != 2) return false;
    }
    return true;
}

class Int64InitializerRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        std::vector<ValueId> fitting;
        bool anyOutOfRange = false;
        for (size_t i = 0; i < graph.values().size(); ++i) {
            const auto id = static_cast<ValueId>(i);
            const Value& value = graph.value(id);
            if (value.consumers.empty() || constantDataType(graph, id) != DataType::Int64) continue;
            const auto values = constantInt64s(graph, id);
            if (!values) continue;
            std::vector<int64_t> offending;
            for (int64_t v : *values)
                if (outOfInt32(v)) offending.push_back(v);
            if (offending.empty()) {
                fitting.push_back(id);
                continue;
            }
            anyOutOfRange = true;
            findings.push_back(verdict(context, id, offending));
        }
        if (!anyOutOfRange && !fitting.empty()) findings.push_back(allFit(context, fitting));
    }

private:
    // One finding for the whole model: the parser's cast-down warning is noise when nothing is clamped.
    static Finding allFit(const LintContext& context, const std::vector<ValueId>& fitting) {
        const Graph& graph = context.graph();
        std::string names;
        for (size_t i = 0; i < fitting.size() && i < 3; ++i)
            names += lintText(i == 0 ? "'" : ", '", graph.value(fitting[i]).name, "'");
        if (fitting.size() > 3) names += ", ...";
        return context.finding(
            kInfo, graph.node(graph.value(fitting.front()).consumers.front()), Severity::Info,
            lintText("harmless: these ", fitting.size(), " INT64 constants fit INT32 (", names,
                     "); TensorRT 8.6's 'Your ONNX model has been generated with INT64 weights ... Attempting to cast "
                     "down to INT32' warning can be ignored"),
            "nothing to do; or export these constants as INT32, or target TensorRT 10.x, to silence the warning");
    }

    static Finding verdict(const LintContext& context, ValueId id, const std::vector<int64_t>& offending) {
        const Graph& graph = context.graph();
        const Value& value = graph.value(id);
        const Node& consumer = graph.node(value.consumers.front());
        bool sentinels = onlySliceBounds(graph, id);
        for (int64_t v : offending) sentinels = sentinels && isSliceSentinel(v);
        if (sentinels)
            return context.finding(
                kInfo, consumer, Severity::Info,
                lintText("INT64 constant '", value.name, "' holds the Slice bound ", offending.front(),
                         " (\"to the end\"); TensorRT 8.6 clamps it to INT32, which keeps its meaning"),
                "nothing to do; or target TensorRT 10.x, which keeps INT64");
        return context.finding(
            kInfo, consumer, Severity::Warning,
            lintText("INT64 constant '", value.name, "' has ", offending.size(), " value(s) outside INT32 (e.g. ",
                     offending.front(), "); TensorRT 8.6 clamps them to +-2147483647 and the result changes"),
            "rewrite the constant so it fits in INT32, keep this part of the model out of TensorRT, "
            "or target TensorRT 10.x");
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt64InitializerRule() {
    return std::make_unique<Int64InitializerRule>();
}

}  // namespace ql::rules
