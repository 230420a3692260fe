#pragma once
// The precision plan: for every node, the precision the user requests (FP32, FP16, INT8) and the precision
// TensorRT will effectively use, with the reason when the two differ.
//
// Requested precisions come from defaultPrecisionPlan() (default_placement.h), a plan file, or edits.
// Effective precisions start equal to the requested ones; PrecisionPolicy objects (the TensorRT rules)
// then downgrade nodes with setEffective(node, precision, reason). applyPolicies() recomputes them all.
//
// Plan file (JSON), documented in docs/plan-schema.md:
//   {
//     "format": "quantlens-plan",          required
//     "version": 1,                        required
//     "default": "fp32",                   optional: precision of unlisted nodes; absent: the default placement
//     "nodes": { "<node name>": "int8" }   required; values "fp32" | "fp16" | "int8" (any case)
//     "tensor_methods": { "<tensor>": "minmax" }  optional: per-tensor calibration method overrides
//                                          ("minmax" | "percentile" | "entropy" | "mse"), see tensorMethods()
//     "effective": { ... }                 written by save() for people and tools, ignored by load()
//     "placement": { "<node>": "why" }     likewise: the notes (placementNote), kept for older readers
//     "reasons": { "<node>": "why" }       optional: why a placement or the tuner chose the node's precision
//                                          (placementNote); written by save(), read by load()
//     "bodies": { "<If/Loop/Scan node>": { "<attribute>": { "nodes": {...}, ... } } }
//                                          optional: plans of control-flow bodies (bodies()), each read like a plan
//                                          without "format" and "version" ("default", else the default placement)
//   }
// Unknown node names are an error listing them; so is an unknown precision or format.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"
#include "core/quant/calibrator.h"

namespace ql {

enum class Precision { Fp32, Fp16, Int8 };

const char* precisionName(Precision precision);       // "fp32", "fp16", "int8"
const char* upperPrecisionName(Precision precision);  // "FP32", "FP16", "INT8"
std::optional<Precision> parsePrecision(std::string_view text);

class PrecisionPlan;
struct BodyPlan;

// A rule that may lower the effective precision of nodes, e.g. "INT8 requested, FP32 effective: 6 channels
// per group, not a multiple of 4". It reads the graph and the plan and calls plan.setEffective().
class PrecisionPolicy {
public:
    virtual ~PrecisionPolicy() = default;
    virtual void apply(const Graph& graph, PrecisionPlan& plan) const = 0;
};

class PrecisionPlan {
public:
    PrecisionPlan() = default;
    // Every node of `graph` at `precision`.
    PrecisionPlan(const Graph& graph, Precision precision);

    size_t size() const { return mEntries.size(); }
    Precision requested(NodeId node) const { return entry(node).requested; }
    Precision effective(NodeId node) const { return entry(node).effective; }
    // Why effective differs from requested; empty when they agree.
    const std::string& reason(NodeId node) const { return entry(node).reason; }

    // Sets the requested precision and resets the node's effective precision to it. `note`: why a placement (not
    // the user) chose it, e.g. "YOLO DFL ..." (default_placement.h); an edit clears it.
    void setRequested(NodeId node, Precision precision, std::string note = {});
    // Why the default placement (or the tuner) requested this precision where it departs from the plain rules;
    // empty otherwise.
    const std::string& placementNote(NodeId node) const { return entry(node).note; }
    // Sets the note alone (the requested precision stays), e.g. the tuner's reason for a tensor's method.
    void setPlacementNote(NodeId node, std::string note) { entry(node).note = std::move(note); }
    // What to tell a user about the node's precision: the reason, else the placement's note.
    const std::string& explanation(NodeId node) const {
        return reason(node).empty() ? placementNote(node) : reason(node);
    }
    // Sets the effective precision; the reason is appended ("; ") to any earlier one, so every rule that
    // touched the node stays visible. Later calls win on the precision.
    void setEffective(NodeId node, Precision precision, const std::string& reason);
    // Effective = requested for every node, reasons cleared; then each policy in order.
    void applyPolicies(const Graph& graph, std::span<const PrecisionPolicy* const> policies);

    // Per-tensor calibration method overrides: the amax the calibration computed for that method
    // (TensorRange::amaxByMethod) replaces the tensor's own wherever plan and calibration meet (activationAmax).
    // How `tune` keeps a layer INT8 whose input the calibration's method clips, and what the histogram panel edits.
    const std::map<std::string, CalibrationMethod>& tensorMethods() const { return mTensorMethods; }
    // The override of `tensor`, if the plan has one.
    std::optional<CalibrationMethod> tensorMethod(const std::string& tensor) const;
    // `method` empty: the calibration's own again.
    void setTensorMethod(const std::string& tensor, std::optional<CalibrationMethod> method);

    // The plans of the control-flow bodies (If's branches, Loop's and Scan's body) of this graph's nodes that were
    // planned: each a plan over the body's own graph (buildSubgraphModel), with bodies of its own for nested
    // control flow. A body without a plan runs as the model gives it, in float: the default placement plans none.
    const std::vector<BodyPlan>& bodies() const { return mBodies; }
    std::vector<BodyPlan>& bodies() { return mBodies; }
    const PrecisionPlan* body(const std::string& node, const std::string& attribute) const;
    PrecisionPlan* body(const std::string& node, const std::string& attribute);
    // The body's plan, added all FP32 over `bodyGraph` when it has none yet.
    PrecisionPlan& ensureBody(const std::string& node, const std::string& attribute, const Graph& bodyGraph);

    nlohmann::json toJson(const Graph& graph) const;
    // `label` names the source (a file) in messages.
    static Result<PrecisionPlan> fromJson(const Graph& graph, const nlohmann::json& json, const std::string& label);
    // A plan file, or a QuantLens project (.qlproj) whose "plan" section is read.
    static Result<PrecisionPlan> load(const Graph& graph, const std::string& path);
    Status save(const Graph& graph, const std::string& path) const;

private:
    struct Entry {
        Precision requested = Precision::Fp32;
        Precision effective = Precision::Fp32;
        std::string reason;
        std::string note;  // placementNote()
    };
    const Entry& entry(NodeId node) const { return mEntries.at(static_cast<size_t>(node)); }
    Entry& entry(NodeId node) { return mEntries.at(static_cast<size_t>(node)); }

    std::vector<Entry> mEntries;  // per node, in graph order
    std::map<std::string, CalibrationMethod> mTensorMethods;
    std::vector<BodyPlan> mBodies;
};

// Every FP16 layer of `plan` and of its bodies' plans effective FP32, with `reason`: what a weakly typed export
// computes where no builder flag applies (ONNX Runtime, the executor), since it writes no float16 anywhere.
void runFp16LayersInFp32(PrecisionPlan& plan, const std::string& reason);

// A body plan that changes what runs: an INT8 or FP16 node (effective), or such a body of its own. The export writes
// these bodies (body_export.h), and lint and the export count their layers.
bool quantizesBody(const PrecisionPlan& body);

struct BodyPlan {
    std::string node;       // the control-flow node, by name in the enclosing graph
    std::string attribute;  // "then_branch", "else_branch", "body"
    PrecisionPlan plan;     // over the body's graph
};

}  // namespace ql
