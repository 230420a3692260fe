#pragma once
// The lint rules as a PrecisionPolicy: every finding that makes a layer fall back lowers the node's effective
// precision, with the rule id and message as the reason, so the GUI and `compare` simulate what TensorRT runs.
#include <array>
#include <optional>
#include <span>

#include "core/lint/trt_version.h"
#include "core/quant/fp16_guard.h"
#include "core/quant/precision_plan.h"
#include "core/quant/realized_precision.h"

namespace ql {

class LintPolicy final : public PrecisionPolicy {
public:
    // `fallback`: what TensorRT picks instead of INT8; FP16 when the engine is built with --fp16 (QuantLens's
    // generated trtexec commands are), FP32 otherwise.
    explicit LintPolicy(TrtVersion version, Precision fallback = Precision::Fp16)
        : mVersion(version), mFallback(fallback) {}
    void apply(const Graph& graph, PrecisionPlan& plan) const override;

private:
    TrtVersion mVersion;
    Precision mFallback;
};

// Every policy a plan goes through before it is simulated, analysed, tuned or exported, in order: TensorRT's INT8
// fallbacks, what the export realizes (realized_precision.h: Q/DQ and fusions), then the FP16 guard (fp16_guard.h;
// with `calibration`, activations too). Keeps them alive together. `typing`: the version's default when not given.
class TrtPolicies {
public:
    TrtPolicies(TrtVersion version, Precision fallback, const CalibrationResult* calibration,
                std::optional<TrtTyping> typing = std::nullopt)
        : mVersion(version),
          mFallback(fallback),
          mTyping(typing),
          mCalibration(calibration),
          mLint(version, fallback),
          mRealized(fallback, typing.value_or(defaultTyping(version)) == TrtTyping::Strong, calibration),
          mGuard(calibration) {}
    TrtPolicies(const TrtPolicies&) = delete;
    TrtPolicies& operator=(const TrtPolicies&) = delete;
    std::span<const PrecisionPolicy* const> list() const { return mList; }
    // The policies on `plan` over `graph`, and on each of its body plans (PrecisionPlan::bodies) over the body's
    // graph with the body's calibration (body_calibration.h), nested ones too. A body that cannot be built again
    // (it was when its plan was made) runs FP32, with the reason.
    void apply(const Graph& graph, PrecisionPlan& plan) const;

private:
    TrtVersion mVersion;
    Precision mFallback;
    std::optional<TrtTyping> mTyping;
    const CalibrationResult* mCalibration;
    LintPolicy mLint;
    RealizedPrecision mRealized;
    Fp16Guard mGuard;
    std::array<const PrecisionPolicy*, 3> mList{&mLint, &mRealized, &mGuard};
};

}  // namespace ql
