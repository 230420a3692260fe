// calib-non-finite: NaN or Inf values in a quantized tensor during calibration.
#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-non-finite", Severity::Warning, kAllTrtVersions,
    "The calibration met NaN or Inf values in this tensor. They are left out of its statistics, so its range "
    "describes the finite values only; in the engine, QuantizeLinear saturates Inf to the INT8 limits and NaN "
    "gives an undefined code, and FP16 overflows (values beyond 65504) become Inf the same way. The usual causes "
    "are a division by a value that can be zero, a log or sqrt of a non-positive value, or calibration data with "
    "NaN in it.",
    "ONNX QuantizeLinear (saturation); IEEE 754 binary16 range; QuantLens calibration diagnosis "
    "(docs/lint-rules.md)"};

class CalibNonFiniteRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        if (!diagnosis) return;
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            if (t.nonFinite == 0) continue;
            findings.push_back(tensorFinding(
                context, kInfo, t, Severity::Warning,
                lintText("tensor '", t.tensor, "' held ", t.nonFinite,
                         " NaN/Inf value(s) during calibration; its range covers the finite values only"),
                "find where the NaN/Inf come from (quantlens-cli run --out on a calibration sample shows every "
                "output), and check the calibration data itself for NaN"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibNonFiniteRule() {
    return std::make_unique<CalibNonFiniteRule>();
}

}  // namespace ql::rules
