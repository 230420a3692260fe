#include "core/quant/fp16_guard.h"

#include <cmath>
#include <sstream>

#include "core/model/constant_values.h"
#include "core/model/fp16_form.h"
#include "core/quant/batchnorm_fold.h"

namespace ql {
namespace {

std::string magnitude(float value) {
    std::ostringstream text;
    text.precision(4);
    text << value;
    return text.str();
}

float maxAbs(const std::vector<float>& values) {
    float m = 0.0f;
    for (float v : values) m = std::max(m, std::abs(v));  // NaN never wins: a NaN weight is another rule's problem
    return m;
}

// The largest |w * factor| of a weight whose layer folds a BatchNormalization (the weight as exported).
std::optional<float> foldedWeightMax(const Graph& graph, const Node& node, ValueId weight,
                                     const std::vector<float>& factor) {
    const auto values = constantFloats(graph, weight);
    const Initializer* init = graph.initializerOf(weight);
    if (!values || init == nullptr) return std::nullopt;
    auto layout = outputChannelLayout(node.opType, init->dims, node.intAttribute("group", 1),
                                      node.intAttribute("transB", 0) != 0);
    if (!layout || layout->channels != static_cast<int64_t>(factor.size())) return std::nullopt;
    float m = 0.0f;
    for (size_t i = 0; i < values->size(); ++i)
        m = std::max(m,
                     std::abs((*values)[i] * factor[static_cast<size_t>(layout->channelOf(static_cast<int64_t>(i)))]));
    return m;
}

std::string initializerBlocker(const Graph& graph, const Node& node, const Fp16Form& form) {
    const auto folded = foldedBatchNorm(graph, node);
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (!form.inputs[i] || !isConstant(graph, node.inputs[i])) continue;
        std::optional<float> largest;
        if (folded && i == 1) largest = foldedWeightMax(graph, node, node.inputs[i], folded->factor);
        if (!largest)
            if (auto values = constantFloats(graph, node.inputs[i])) largest = maxAbs(*values);
        if (largest && !(*largest <= kFp16InitializerLimit))
            return "FP16 guard: initializer '" + graph.value(node.inputs[i]).name + "' reaches " + magnitude(*largest) +
                   (folded && i == 1 ? " once the BatchNormalization is folded" : "") +
                   ", beyond float16's largest value 65504; kept FP32";
    }
    return {};
}

}  // namespace

std::string Fp16Guard::activationBlocker(const Graph& graph, const Node& node) const {
    if (mCalibration == nullptr) return {};
    const bool foldsBatchNorm = foldedBatchNorm(graph, node).has_value();
    const auto check = [&](ValueId v, const char* role) -> std::string {
        if (v == kNoId || isConstant(graph, v) || graph.value(v).type.dtype != DataType::Float) return {};
        const TensorRange* range = mCalibration->activation(graph.value(v).name);
        if (range == nullptr) return {};
        const float reach = std::max({std::abs(range->min), std::abs(range->max), range->amax});
        if (reach <= kFp16ActivationLimit) return {};
        return std::string("FP16 guard: ") + role + " '" + graph.value(v).name + "' reaches " + magnitude(reach) +
               " in calibration, beyond 512 where float16's step is 0.5 or more; kept FP32";
    };
    for (ValueId v : node.inputs)
        if (auto why = check(v, "input"); !why.empty()) return why;
    if (foldsBatchNorm) {  // the pre-BN output never exists in the export: judge the BatchNormalization's output
        const Node& bn = graph.node(foldedBatchNorm(graph, node)->batchNorm);
        return bn.outputs.empty() ? std::string() : check(bn.outputs[0], "output");
    }
    for (ValueId v : node.outputs)
        if (auto why = check(v, "output"); !why.empty()) return why;
    return {};
}

std::string Fp16Guard::blocker(const Graph& graph, const Node& node) const {
    if (layerFoldingBatchNorm(graph, node) != kNoId) return {};  // folded away: its layer is judged instead
    const Fp16Form form = fp16Form(graph, node);
    if (!form.possible()) return "no FP16 form: " + form.blocker + "; kept FP32";
    if (auto why = initializerBlocker(graph, node, form); !why.empty()) return why;
    return activationBlocker(graph, node);
}

void Fp16Guard::apply(const Graph& graph, PrecisionPlan& plan) const {
    for (const Node& node : graph.nodes()) {
        if (plan.effective(node.id) != Precision::Fp16 || !computesFloat(graph, node)) continue;
        if (auto why = blocker(graph, node); !why.empty()) plan.setEffective(node.id, Precision::Fp32, why);
    }
}

}  // namespace ql
