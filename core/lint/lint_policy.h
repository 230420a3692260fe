#pragma once
// The lint rules as a PrecisionPolicy: every finding that makes a layer fall back lowers the node's effective
// precision, with the rule id and message as the reason, so the GUI and `compare` simulate what TensorRT runs.
#include "core/lint/trt_version.h"
#include "core/quant/precision_plan.h"

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

}  // namespace ql
