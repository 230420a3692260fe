// calib-method-gap: the amax in use clips little but wastes INT8 levels on rare outliers (or cuts too much of
// the tail in another way): another method is expected to give much more SQNR.
#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-method-gap", Severity::Warning, kAllTrtVersions,
    "Another calibration method is expected to quantize this tensor with at least 6 dB more SQNR (four times less "
    "noise) than the method in use, while the one in use clips under 1% of the values: typically minmax (or a "
    "high percentile) stretched by a few outliers, which leaves most values on a handful of INT8 levels. The "
    "numbers come from the tensor's calibration histogram; whether the outputs suffer depends on what reads the "
    "tensor, which `compare --mode isolated` and `tune` measure.",
    "QuantLens calibration diagnosis (docs/lint-rules.md, expected SQNR from the calibration histogram); Wu et al., "
    "\"Integer Quantization for Deep Learning Inference\", 2020, section 4.1 (max calibration and outliers)"};

class CalibMethodGapRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        if (!diagnosis) return;
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            const MethodQuality* best = t.best();
            // Clipping of 1% or more is calib-clipping's.
            if (!t.expected || !best || t.expected->clippedFraction >= DiagnosisThresholds::kClippedFraction ||
                best->expected.sqnrDb - t.expected->sqnrDb < DiagnosisThresholds::kMethodGapDb)
                continue;
            findings.push_back(
                tensorFinding(context, kInfo, t, Severity::Warning,
                              lintText("tensor '", t.tensor, "': ", inUseText(t, diagnosis->config),
                                       " is expected to give ", decibelText(t.expected->sqnrDb), " (values in [", t.min,
                                       ", ", t.max, "]), where ", alternativeText(*best, diagnosis->config)),
                              methodFix(t, *best)));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibMethodGapRule() {
    return std::make_unique<CalibMethodGapRule>();
}

}  // namespace ql::rules
