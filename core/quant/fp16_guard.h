#pragma once
// Which FP16 layers stay FP32, as NVIDIA's ModelOpt AutoCast decides it (Model-Optimizer
// docs/source/guides/8_autocast.rst): a node whose activations (read or written) exceed
// kFp16ActivationLimit in magnitude, or whose float initializers exceed kFp16InitializerLimit, and a node that has
// no float16 form (fp16_form.h). A PrecisionPolicy, applied after the TensorRT rules, so the simulation, the
// analysis and the strongly typed export see the same FP16 islands, each guarded node with its reason.
//   - Activations: the calibration's observed extremes (max(|min|, |max|)), or its amax when a file gave no
//     extremes; no calibration, or a tensor it lacks: only the initializers are checked.
//   - BatchNormalization first: the export folds a BatchNormalization into the Conv before it, so that Conv is
//     judged by the folded weights and by the BatchNormalization's output, never by the pre-BN tensor (whose
//     range can be far larger: ultralytics PR #26171), and the folded BatchNormalization by nothing.
#include <string>

#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

// "ULP for 512 is 0.5": above it FP16 rounds activations by half a unit or more (AutoCast's data_max).
inline constexpr float kFp16ActivationLimit = 512.0f;
// The largest finite float16 (AutoCast's init_max).
inline constexpr float kFp16InitializerLimit = 65504.0f;

class Fp16Guard final : public PrecisionPolicy {
public:
    // `calibration` may be null (initializers and FP16 forms only); it must outlive apply().
    explicit Fp16Guard(const CalibrationResult* calibration) : mCalibration(calibration) {}
    void apply(const Graph& graph, PrecisionPlan& plan) const override;

    // Why `node` cannot run in FP16, or empty when it can (what apply() writes as the reason).
    std::string blocker(const Graph& graph, const Node& node) const;

private:
    std::string activationBlocker(const Graph& graph, const Node& node) const;
    const CalibrationResult* mCalibration;
};

}  // namespace ql
