// calib-few-samples: ranges computed from too few samples to be stable.
#include "core/lint/rules/calib_common.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "calib-few-samples", Severity::Info, kAllTrtVersions,
    "The ranges come from fewer than 32 samples. Extremes, percentiles and the entropy threshold of a few samples "
    "change from one draw of data to the next, so the INT8 accuracy measured on them may not hold in deployment. "
    "NVIDIA recommends about 500 images for ImageNet classifiers; ModelOpt and ONNX Runtime examples use 128 to "
    "512 samples.",
    "TensorRT Developer Guide, \"INT8 Calibration\" (\"about 500 images are sufficient for ImageNet "
    "classification\"); TensorRT Model Optimizer PTQ guide (calibration set size); QuantLens calibration diagnosis"};

class CalibFewSamplesRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const CalibrationDiagnosis* diagnosis = context.calibration();
        // 0 samples: ranges imported from a file that does not count them (a TensorRT cache, ONNX Runtime's table).
        if (!diagnosis || diagnosis->tensors.empty() || diagnosis->samples == 0) return;
        if (diagnosis->samples < DiagnosisThresholds::kMinSamples) {  // one finding for the whole calibration
            findings.push_back(tensorFinding(
                context, kInfo, diagnosis->tensors.front(), Severity::Info,
                lintText("the calibration used ", diagnosis->samples, " sample(s); its ranges may not be stable"),
                lintText("calibrate on at least ", DiagnosisThresholds::kMinSamples,
                         " representative samples (hundreds for real data)")));
            return;
        }
        for (const TensorDiagnosis& t : diagnosis->tensors) {
            if (t.samples >= DiagnosisThresholds::kMinSamples) continue;
            findings.push_back(tensorFinding(
                context, kInfo, t, Severity::Info,
                lintText("tensor '", t.tensor, "' was counted on ", t.samples, " of the ", diagnosis->samples,
                         " samples (a tensor the executor's fusion hides, counted on a share of them)"),
                "calibrate with --full-statistics to count it on every sample"));
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeCalibFewSamplesRule() {
    return std::make_unique<CalibFewSamplesRule>();
}

}  // namespace ql::rules
