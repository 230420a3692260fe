#pragma once
// What every rule reads: the graph, the target TensorRT version and typing, which layers are planned INT8 (the
// requested precisions of the plan, or the Q/DQ nodes of an explicitly quantized model), indexes over the Q/DQ
// links, and the trtexec command that builds the engine when one was given.
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/lint/lint_rule.h"
#include "core/lint/linter.h"
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
// The constant scales of a QuantizeLinear/DequantizeLinear (one, or one per channel); nullopt when not constant.
std::optional<std::vector<float>> qdqScales(const Graph& graph, const Node& qdq);

class LintLatency;
class StaticRanges;

class LintContext {
public:
    // `options.calibration`: the diagnosis the calib-* rules read; null when lint runs without a calibration.
    // `options` must outlive the context (the command text is not copied).
    LintContext(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options);
    LintContext(const LintContext&) = delete;
    LintContext& operator=(const LintContext&) = delete;
    ~LintContext();

    const Graph& graph() const { return mGraph; }
    TrtVersion version() const { return mVersion; }
    // The typing the engine is built with: the options' typing where the version can build it (10.x), else the
    // only one the version has (8.6 weak, 11.x strong).
    TrtTyping typing() const { return mTyping; }
    bool stronglyTyped() const { return mTyping == TrtTyping::Strong; }
    bool writtenForStrongTyping() const { return mWrittenForStrongTyping; }
    // The graph is an If/Loop/Scan body linted on its own: a rule about the whole model stays silent there.
    bool insideSubgraph() const { return mInsideSubgraph; }
    // The trtexec command or script to check; empty when none was given.
    std::string_view trtexecCommand() const { return mTrtexecCommand; }
    const CalibrationDiagnosis* calibration() const { return mCalibration; }
    // The plan linted: its requested precisions and its effective ones (a model that carries Q/DQ: what it says).
    const PrecisionPlan& plan() const { return mPlan; }
    // The engine the plan builds, predicted and timed on the options' GPU (lint_latency.h), computed on the first
    // call; null without a GPU, and inside a subgraph (the prediction is of the whole model).
    const LintLatency* latency() const;
    // The ranges the graph bounds by construction (core/quant/static_ranges.h), worked out once per lint for the
    // rules that read them.
    const StaticRanges& staticRanges() const;
    // Whether rule `id` runs (the options do not ignore it): a rule that leaves a case to another checks it does.
    bool runs(std::string_view ruleId) const;
    // The model already carries Q/DQ nodes: TensorRT uses explicit quantization and ignores the plan.
    bool explicitQuantization() const { return mExplicit; }
    // Will TensorRT be asked to run this node in INT8? Explicit: one of its inputs is dequantized; else the plan.
    bool int8Planned(NodeId node) const;
    // int8Planned, and the plan's effective precision still INT8 (what the export realizes: realized_precision.h):
    // what the coverage counts, as the export summary and the window count.
    bool int8Effective(NodeId node) const;
    // The precision the plan's export writes for the node (realized_precision.h); nullopt for a model that carries
    // Q/DQ, where the file's own nodes and types decide.
    std::optional<Precision> plannedEffective(NodeId node) const;

    // The Q/DQ link feeding input `slot` of `layer`, or nullptr.
    const QdqLink* inputLink(NodeId layer, size_t slot) const;
    const Node* producer(ValueId value) const;
    // Whether `value` is the output of a DequantizeLinear (the edge is quantized).
    bool dequantized(ValueId value) const;
    // Dims of a value (-1 where unknown); empty when the rank is unknown or the value is absent.
    std::vector<int64_t> dims(ValueId value) const;
    // The tensor a layer input really reads: through a DequantizeLinear (and its QuantizeLinear) to the source.
    ValueId throughQdq(ValueId value) const;
    // The QuantizeLinear feeding this DequantizeLinear, or nullptr (a lone DequantizeLinear over a quantized
    // initializer, as ONNX Runtime stores weights).
    const Node* pairedQuantize(const Node& dequantize) const;
    // Producer-chain walks treat a QuantizeLinear -> DequantizeLinear pair as the quantization of the edge it sits
    // on, not as a layer: the node producing `value`, seen through such a pair when there is one. `crossedQdq`
    // (optional) says whether a pair was crossed. A lone DequantizeLinear (a weight) has no producer: nullptr.
    const Node* producerThroughQdq(ValueId value, bool* crossedQdq = nullptr) const;
    // The producer of the tensor a Q -> DQ pair on this edge quantizes, when that tensor feeds only the Q (the pair
    // sits on a single-consumer edge); nullptr when `value` is not the output of such a pair.
    const Node* producerBehindQdq(ValueId value) const;

    Finding finding(const RuleInfo& rule, const Node& node, Severity severity, std::string message, std::string fix,
                    bool causesFallback = false) const;
    // A finding on no node (node kNoId): about the build command rather than the graph.
    Finding finding(const RuleInfo& rule, Severity severity, std::string message, std::string fix) const;

private:
    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    TrtVersion mVersion;
    TrtTyping mTyping;
    std::string_view mTrtexecCommand;
    const CalibrationDiagnosis* mCalibration;
    const std::set<std::string>& mIgnoredRules;
    bool mWrittenForStrongTyping = false;
    bool mInsideSubgraph = false;
    bool mExplicit = false;
    std::unordered_map<int64_t, const QdqLink*> mLinkByInput;  // key: layer * 4096 + slot
    const GpuProfile* mGpu = nullptr;
    mutable std::unique_ptr<LintLatency> mLatency;  // latency(): computed once
    mutable std::unique_ptr<StaticRanges> mStaticRanges;
};

}  // namespace ql
