#pragma once
// What every rule reads: the graph, the target TensorRT version, which layers are planned INT8 (the requested
// precisions of the plan, or the Q/DQ nodes of an explicitly quantized model), and indexes over the Q/DQ links.
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/lint/lint_rule.h"
#include "core/quant/calibration_diagnosis.h"
#include "core/quant/precision_plan.h"

namespace ql {

// Concatenates values into a message: lintText("group ", g, " has ", c, " channels").
template <typename... Parts>
std::string lintText(const Parts&... parts) {
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

bool isOp(const Node& node, std::string_view opType);
// Conv, ConvTranspose, Gemm and MatMul: the layers TensorRT quantizes by default (its "weighted operations").
bool isWeightedLayer(const Node& node);
std::string joinInts(const std::vector<int64_t>& values);  // "[64,3,7,7]"

class LintContext {
public:
    // `calibration`: the diagnosis the calib-* rules read; null when lint runs without a calibration.
    LintContext(const Graph& graph, const PrecisionPlan& plan, TrtVersion version,
                const CalibrationDiagnosis* calibration = nullptr);
    LintContext(const LintContext&) = delete;
    LintContext& operator=(const LintContext&) = delete;

    const Graph& graph() const { return mGraph; }
    TrtVersion version() const { return mVersion; }
    const CalibrationDiagnosis* calibration() const { return mCalibration; }
    // The model already carries Q/DQ nodes: TensorRT uses explicit quantization and ignores the plan.
    bool explicitQuantization() const { return mExplicit; }
    // Will TensorRT be asked to run this node in INT8? Explicit: one of its inputs is dequantized; else the plan.
    bool int8Planned(NodeId node) const;

    // The Q/DQ link feeding input `slot` of `layer`, or nullptr.
    const QdqLink* inputLink(NodeId layer, size_t slot) const;
    const Node* producer(ValueId value) const;
    // Dims of a value (-1 where unknown); empty when the rank is unknown or the value is absent.
    std::vector<int64_t> dims(ValueId value) const;
    // The tensor a layer input really reads: through a DequantizeLinear (and its QuantizeLinear) to the source.
    ValueId throughQdq(ValueId value) const;

    Finding finding(const RuleInfo& rule, const Node& node, Severity severity, std::string message, std::string fix,
                    bool causesFallback = false) const;

private:
    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    TrtVersion mVersion;
    const CalibrationDiagnosis* mCalibration;
    bool mExplicit = false;
    std::unordered_map<int64_t, const QdqLink*> mLinkByInput;  // key: layer * 4096 + slot
};

}  // namespace ql
