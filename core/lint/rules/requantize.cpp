// trt-requantize: an INT8 tensor dequantized and quantized again to another scale, with only data movement between.
#include <algorithm>
#include <cmath>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/op_roles.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-requantize", Severity::Warning, kAllTrtVersions,
    "A DequantizeLinear followed, through data movement only (Reshape, Transpose, Concat, MaxPool, Relu, Slice, ...), "
    "by a QuantizeLinear with a different scale makes TensorRT requantize the INT8 tensor from one scale to the other: "
    "an extra kernel between the two layers that equal scales would avoid (the pair then cancels and the data stays "
    "INT8). Such requantize steps are why explicitly quantized engines are reported slower than implicit INT8. "
    "NVIDIA's "
    "Model Optimizer gives such tensors one shared scale.",
    "NVIDIA/TensorRT issues #4366, #4364, #4412 and NVIDIA/Model-Optimizer #207 (explicit Q/DQ slower than implicit "
    "INT8: DQ->Q requantize kernels); Model Optimizer int8.py concat_elimination"};

bool sameScales(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size()) return true;  // per-tensor vs per-channel: another rule's business
    for (size_t i = 0; i < a.size(); ++i)
        if (std::fabs(a[i] - b[i]) > 1e-6f * std::max(std::fabs(a[i]), std::fabs(b[i]))) return false;
    return true;
}

std::string scaleText(const std::vector<float>& scales) {
    return scales.size() == 1 ? lintText(scales.front()) : lintText(scales.size(), " per-channel scales");
}

struct Path {
    const Node* dequantize = nullptr;
    std::vector<std::string> between;  // op types from the DQ to the Q
};

// The DequantizeLinear nodes that reach `value` through data-movement ops only.
void dequantizersOf(const LintContext& context, ValueId value, std::vector<std::string> between, std::vector<Path>& out,
                    int depth = 0) {
    const Node* p = value == kNoId ? nullptr : context.producer(value);
    if (p == nullptr || depth > 16) return;
    if (isOp(*p, "DequantizeLinear")) {
        std::reverse(between.begin(), between.end());
        out.push_back({p, std::move(between)});
        return;
    }
    if (!keepsValues(*p) || p->inputs.empty()) return;
    between.push_back(p->opType);
    if (isOp(*p, "Concat")) {
        for (ValueId in : p->inputs) dequantizersOf(context, in, between, out, depth + 1);
        return;
    }
    dequantizersOf(context, p->inputs[0], between, out, depth + 1);
}

std::string joined(const std::vector<std::string>& ops) {
    std::string out;
    for (const std::string& op : ops) out += lintText(out.empty() ? "" : " -> ", op);
    return out;
}

class RequantizeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const Node& q : graph.nodes()) {
            if (!isOp(q, "QuantizeLinear") || q.inputs.empty() || q.inputs[0] == kNoId) continue;
            const auto qScales = qdqScales(graph, q);
            if (!qScales) continue;
            std::vector<Path> paths;
            dequantizersOf(context, q.inputs[0], {}, paths);
            for (const Path& path : paths) {
                // Through a Concat: trt-concat-scales' finding.
                if (std::find(path.between.begin(), path.between.end(), "Concat") != path.between.end()) continue;
                const auto dqScales = qdqScales(graph, *path.dequantize);
                if (!dqScales || dqScales->size() != qScales->size() || sameScales(*dqScales, *qScales)) continue;
                const ValueId source = path.dequantize->inputs[0];
                const std::string name = source == kNoId ? path.dequantize->name : graph.value(source).name;
                findings.push_back(context.finding(
                    kInfo, q, Severity::Warning,
                    lintText("INT8 tensor '", name, "' (scale ", scaleText(*dqScales), ", dequantized by '",
                             path.dequantize->name, "') is quantized again with scale ", scaleText(*qScales),
                             path.between.empty() ? "" : " after " + joined(path.between),
                             ": TensorRT adds a requantize kernel here"),
                    lintText("give '", path.dequantize->name, "' and '", q.name,
                             "' the same scale (the larger one, as Model Optimizer's concat_elimination does) so the "
                             "pair cancels and the tensor stays INT8")));
            }
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeRequantizeRule() {
    return std::make_unique<RequantizeRule>();
}

}  // namespace ql::rules
