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

// A layer planned INT8 that falls back (a lint rule, no range for its input, nothing to fuse with) to FP16 where the
// version has no strongly typed FP16 kernel for it (11.2: grouped convolutions) runs FP32, which builds. A layer the
// user plans FP16 stays so: trt-strong-fp16-grouped-conv tells them.
class Fp16KernelFallback final : public PrecisionPolicy {
public:
    explicit Fp16KernelFallback(TrtVersion version) : mVersion(version) {}
    void apply(const Graph& graph, PrecisionPlan& plan) const override;

private:
    TrtVersion mVersion;
};

// Every policy a plan goes through before it is simulated, analysed, tuned or exported, in order: TensorRT's INT8
// fallbacks, what the export realizes (realized_precision.h: Q/DQ and fusions), FP32 where a fallback has no FP16
// kernel (Fp16KernelFallback), then the FP16 guard (fp16_guard.h;
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
          mKernelFallback(version),
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
    Fp16KernelFallback mKernelFallback;
    Fp16Guard mGuard;
    std::array<const PrecisionPolicy*, 4> mList{&mLint, &mRealized, &mKernelFallback, &mGuard};
};

}  // namespace ql
