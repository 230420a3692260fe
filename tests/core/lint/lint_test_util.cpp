#include "tests/core/lint/lint_test_util.h"

#include "core/quant/default_placement.h"

namespace ql::test {

QdqSpec perTensor(float scale) {
    QdqSpec spec;
    spec.scales = {scale};
    return spec;
}

QdqSpec perChannel(size_t count, float scale, std::optional<int64_t> axis) {
    QdqSpec spec;
    spec.scales.assign(count, scale);
    spec.axis = axis;
    return spec;
}

std::string addQdq(ModelBuilder& b, const std::string& tensor, const QdqSpec& spec) {
    const bool perChannel = spec.scales.size() > 1;
    const std::vector<int64_t> dims =
        perChannel ? std::vector<int64_t>{static_cast<int64_t>(spec.scales.size())} : std::vector<int64_t>{};
    b.initializer(tensor + "_scale", dims, spec.scales);
    std::vector<std::string> inputs = {tensor, tensor + "_scale"};
    if (spec.withZeroPoint) {
        std::vector<double> zps = spec.zeroPoints;
        if (zps.empty()) zps.assign(spec.scales.size(), 0.0);
        b.initializer(tensor + "_zp", spec.zeroPointType, dims, zps);
        inputs.push_back(tensor + "_zp");
    }
    auto q = b.node("QuantizeLinear", inputs, {tensor + "_q"}, tensor + "_q");
    std::vector<std::string> dqInputs = inputs;
    dqInputs[0] = tensor + "_q";
    auto dq = b.node("DequantizeLinear", dqInputs, {tensor + "_dq"}, tensor + "_dqnode");
    if (spec.axis) {
        q.i("axis", *spec.axis);
        dq.i("axis", *spec.axis);
    }
    return tensor + "_dq";
}

LintReport lintModel(const Model& model, TrtVersion version) {
    return lint(model.graph(), defaultPrecisionPlan(model.graph()), {version});
}

std::vector<Finding> findingsOf(const Model& model, std::string_view rule, TrtVersion version) {
    return findingsOf(lintModel(model, version), rule);
}

std::vector<Finding> findingsOf(const LintReport& report, std::string_view rule) {
    std::vector<Finding> out;
    for (const Finding& f : report.findings)
        if (f.ruleId == rule) out.push_back(f);
    return out;
}

}  // namespace ql::test
