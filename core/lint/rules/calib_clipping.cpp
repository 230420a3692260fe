// calib-clipping: the amax in use saturates a large share of a quantized tensor's values, and another method
// is expected to quantize the tensor much better.
#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-clipping", Severity::Warning, kAllTrtVersions,
    "The calibrated range of this tensor saturates at least 1% of its values, and another calibration method is "
    "expected to give at least 3 dB more SQNR on the same histogram. Every value beyond amax becomes amax in INT8, "
    "so features carried by the largest values (bright pixels of a normalised image, a detector's box "
    "coordinates) are flattened: a common cause of an accuracy collapse that nothing else reports. TensorRT's "
    "entropy calibrator clips this way on tensors whose histogram is dominated by one spike (a background value), "
    "because the KL divergence of the spike outweighs the tail.",
    "QuantLens calibration diagnosis (docs/lint-rules.md, expected SQNR from the calibration histogram); Migacz, "
    "\"8-bit Inference with TensorRT\", GTC 2017 (entropy calibration); Wu et al., \"Integer Quantization for Deep "
    "Learning Inference\", 2020, section 4 (calibration method per network)"};

class CalibClippingRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        if (!diagnosis) return;
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            const MethodQuality* best = t.best();
            if (!t.expected || !best || t.expected->clippedFraction < DiagnosisThresholds::kClippedFraction ||
                best->expected.sqnrDb - t.expected->sqnrDb < DiagnosisThresholds::kSqnrGapDb)
                continue;
            findings.push_back(
                tensorFinding(context, kInfo, t, Severity::Warning,
                              lintText("tensor '", t.tensor, "': ", inUseText(t, diagnosis->config), " clips ",
                                       percentText(t.expected->clippedFraction), " of its values (they reach ",
                                       std::max(-t.min, t.max), "): expected SQNR ", decibelText(t.expected->sqnrDb),
                                       ", where ", alternativeText(*best, diagnosis->config)),
                              methodFix(t, *best)));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibClippingRule() {
    return std::make_unique<CalibClippingRule>();
}

}  // namespace ql::rules
