// calib-dead-range: a quantized tensor whose calibrated amax is 0 (only zeros, or nothing, were seen).
#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-dead-range", Severity::Warning, kAllTrtVersions,
    "The calibration saw only zeros in this tensor, so its amax is 0 and its INT8 scale would be 0, which ONNX "
    "QuantizeLinear and TensorRT reject (QuantLens writes the smallest positive scale instead, so the build goes "
    "through, but every non-zero value the deployed model meets saturates). Usually the calibration data never "
    "exercises this branch (an all-zero mask, padding, a class never present), or the tensor is dead in the model.",
    "ONNX QuantizeLinear (y_scale must be positive); TensorRT Developer Guide, \"Explicit Quantization\" (scale "
    "must be positive); QuantLens calibration diagnosis (docs/lint-rules.md)"};

class CalibDeadRangeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        if (!diagnosis) return;
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            if (t.amax > 0.0f) continue;
            const std::string layer = context.graph().node(t.layer).name;
            findings.push_back(
                tensorFinding(context, kInfo, t, Severity::Warning,
                              lintText("tensor '", t.tensor, "' has amax 0: every value the calibration saw in it (",
                                       t.samples, " samples) was 0, so INT8 has no range for it"),
                              lintText("calibrate on data that reaches this tensor, or keep layer '", layer,
                                       "' in FP16 (\"nodes\": {\"", layer, "\": \"fp16\"} in the plan)")));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibDeadRangeRule() {
    return std::make_unique<CalibDeadRangeRule>();
}

}  // namespace ql::rules
