#pragma once
// Runs every lint rule that applies to the target TensorRT version and derives the INT8 coverage of the
// weighted layers: which run INT8 and which fall back, with the rule that says why.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/lint/finding.h"
#include "core/lint/trt_version.h"
#include "core/quant/calibration_diagnosis.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct GpuProfile;

struct LintOptions {
    TrtVersion version = TrtVersion::Trt10;
    // With a calibration's diagnosis (diagnoseCalibration) the calib-* rules check it; without, they find nothing.
    const CalibrationDiagnosis* calibration = nullptr;
    // How the engine is built. Only 10.x can build both ways; 8.6 is always weak and 11.x always strong, whatever
    // this says (LintContext::typing()).
    TrtTyping typing = TrtTyping::Strong;
    // The shell script or command line that builds the engine (trtexec ...): trt-precision-flags checks the builder
    // precision flags it passes. Empty: not checked. ({} keeps `{version}` aggregate inits free of
    // -Wmissing-field-initializers.)
    std::string trtexecCommand{};
    // Rule ids not to run (lint --ignore, a project's silenced rules): their findings are not produced at all, so a
    // layer one of them would make fall back counts as INT8.
    std::set<std::string> ignoredRules{};
    // QuantLens wrote the model for a strongly typed build (its metadata "quantlens.typing", carried_model.h): its
    // float32 layers are planned FP32, not left to a builder flag, so nothing asks to re-export it.
    bool writtenForStrongTyping = false;
    // The graph is a control-flow body (subgraph_lint.h): rules about the model as a whole leave it to the main graph.
    bool insideSubgraph = false;
    // The GPU the latency rules (trt-int8-island-slower, trt-fp16-island-reformats, trt-int8-no-gain) time the
    // predicted engine on (lint --gpu / --gpu-profile, a project's profile); null: they stay silent. Must outlive
    // the lint.
    const GpuProfile* gpu = nullptr;
};

// A weighted layer planned INT8 that does not run INT8: a lint rule's fallback, or another of TensorRT's precision
// decisions the plan's effective precision carries (ruleId empty: e.g. a layer of a body branch that never ran in
// calibration).
struct LayerFallback {
    NodeId node = kNoId;
    std::string ruleId;  // the lint rule; empty for a decision of the plan's
    std::string reason;  // the finding's message, or the plan's reason
    std::string nodeName =
        {};  // a body's layer, by path ("If_0/then_branch/conv"; node: the control-flow node); else empty
    std::string opType = {};  // a body's layer's op type (a main graph layer's is its node's)
};

struct LintCoverage {
    int weightedLayers = 0;
    int int8Layers = 0;  // weighted layers planned INT8 that TensorRT will run in INT8
    // Weighted layers planned INT8 that do not run INT8 (one per layer), in planned bodies too: int8Layers and these
    // add up to the layers planned INT8.
    std::vector<LayerFallback> fallbacks;
};

struct LintReport {
    std::vector<Finding> findings;  // by severity (errors first), then in graph order
    LintCoverage coverage;
};

// `plan` gives the requested precision of every node of `graph` (e.g. defaultPrecisionPlan(graph)); it is ignored
// for models that already carry Q/DQ, where TensorRT follows the Q/DQ nodes.
LintReport lint(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options = {});

// The rules that time the predicted engine (LintOptions::gpu): trt-int8-island-slower, trt-fp16-island-reformats,
// trt-int8-no-gain. The window runs lint with a GPU off the GUI thread and keeps only their findings.
bool isLatencyRule(std::string_view ruleId);

// Only the calib-* rules: what `calibrate` and `compare` print after their own output.
std::vector<Finding> calibrationFindings(const Graph& graph, const PrecisionPlan& plan,
                                         const CalibrationDiagnosis& diagnosis, TrtVersion version);
bool isCalibrationRule(std::string_view ruleId);

// The first finding that makes each node fall back to float (the reason the effective precision differs from
// the requested one); one entry per node, in graph order.
std::vector<const Finding*> fallbackFindings(const std::vector<Finding>& findings);

}  // namespace ql
