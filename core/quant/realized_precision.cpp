#include "core/quant/realized_precision.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "core/model/constant_values.h"
#include "core/model/fp16_form.h"
#include "core/model/op_roles.h"
#include "core/quant/batchnorm_fold.h"
#include "core/quant/default_placement.h"
#include "core/quant/qdq_placement.h"

namespace ql {
namespace {

// Ops the export never folds, whatever their inputs (constant_folding.cpp keeps them as nodes); a Constant is folded.
bool neverFolded(const Node& node) {
    return !isDefaultDomain(node) || !node.subgraphs.empty() ||
           (node.opType != "Constant" && keptByConstantFolding(node.opType));
}

// Why node `id`, planned INT8, gets no Q/DQ and fuses with nothing; `placed`: its decision in the placement.
std::string notInt8Reason(const Graph& graph, const Node& node, const LayerDecision& placed) {
    if (placesOwnQdq(node)) {
        if (!placed.reason.empty() && placed.precision != Precision::Int8) return "no Q/DQ: " + placed.reason;
        if (node.opType == "Add") return "no Q/DQ: neither input comes from an INT8 layer the Add could fuse into";
        if (node.opType == "Concat")
            return "no Q/DQ: its output is not read through Q/DQ, so TensorRT runs the Concat in float";
        return "no Q/DQ: its input has no calibrated scale";
    }
    if (followsNeighboursIntoInt8(node)) {
        const NodeId producer = fusedProducer(graph, node);
        if (producer != kNoId) return "fused into '" + graph.node(producer).name + "', which does not run INT8";
        if (movesData(node)) return "data movement runs INT8 only between INT8 layers; here a neighbour runs in float";
    }
    return node.opType + " gets no Q/DQ: TensorRT runs it in float";
}

std::string fusedReason(const Graph& graph, const Node& node, bool strongTyping) {
    const NodeId producer = fusedProducer(graph, node);
    const std::string into = producer != kNoId ? "fused into INT8 '" + graph.node(producer).name + "'"
                                               : "between INT8 layers, TensorRT moves the data in INT8";
    return into + (strongTyping ? "; plan it FP16 to keep it in float (a float16 island breaks the fusion)"
                                : "; weak typing cannot keep it out of the fusion");
}

}  // namespace

std::vector<bool> constantComputed(const Graph& graph) {
    std::vector<bool> computed(graph.nodes().size(), false);
    std::vector<bool> constant(graph.values().size(), false);
    for (size_t v = 0; v < constant.size(); ++v) {
        const ValueId id = static_cast<ValueId>(v);
        constant[v] = !graph.value(id).isGraphInput && isConstant(graph, id);
    }
    for (const Node& node : graph.nodes()) {
        if (neverFolded(node)) continue;
        bool all = node.opType == "Constant", any = false;
        if (!all) {
            all = true;
            for (ValueId v : node.inputs) {
                if (v == kNoId) continue;
                any = true;
                all = all && constant[static_cast<size_t>(v)];
            }
            all = all && any;
        }
        for (ValueId v : node.outputs)
            if (v != kNoId && graph.value(v).isGraphOutput) all = false;  // the export keeps output nodes
        if (!all) continue;
        computed[static_cast<size_t>(node.id)] = true;
        for (ValueId v : node.outputs)
            if (v != kNoId) constant[static_cast<size_t>(v)] = true;
    }
    return computed;
}

void RealizedPrecision::apply(const Graph& graph, PrecisionPlan& plan) const {
    if (!graph.qdqLinks().empty()) return;  // the model's own Q/DQ decide
    const size_t n = graph.nodes().size();
    const std::vector<bool> folded = constantComputed(graph);
    for (const Node& node : graph.nodes())
        if (folded[static_cast<size_t>(node.id)] && plan.effective(node.id) != Precision::Fp32)
            plan.setEffective(node.id, Precision::Fp32,
                              "computed from constants only: the export folds it into a float32 initializer");

    // A BatchNormalization the export folds into its layer is gone from the file: it runs as that layer runs.
    std::vector<NodeId> foldedInto(n, kNoId);
    for (const Node& node : graph.nodes())
        if (node.opType == "BatchNormalization")
            foldedInto[static_cast<size_t>(node.id)] = layerFoldingBatchNorm(graph, node);
    // Candidates: the INT8 nodes, folded BatchNormalizations, and the nodes a fusion may pull in (not a float16
    // island, not folded into a constant).
    std::vector<bool> candidate(n, false), ownQdq(n, false);
    for (const Node& node : graph.nodes()) {
        const size_t i = static_cast<size_t>(node.id);
        const Precision p = plan.effective(node.id);
        ownQdq[i] = placesOwnQdq(node);
        candidate[i] = !folded[i] && (p == Precision::Int8 || foldedInto[i] != kNoId ||
                                      (followsNeighboursIntoInt8(node) && !(mStrongTyping && p == Precision::Fp16)));
    }
    AmaxByName amax;
    if (mCalibration) {
        auto withMethods = activationAmax(*mCalibration, plan);  // an unknown method override: the export says so
        if (withMethods) {
            amax = std::move(withMethods).value();
        } else {
            for (const auto& range : mCalibration->activations) amax[range.name] = range.amax;
        }
    }
    QdqOptions options;
    options.weightScales = false;
    options.assumeCalibrated = mCalibration == nullptr;
    // Q/DQ nodes are decided by their placement, the others by their neighbours; each demotion may undo a fusion or
    // an edge elsewhere, so repeat until nothing changes.
    std::vector<bool> int8;
    QdqPlacement placement;
    std::vector<std::string> why(n);  // the placement's reason, kept from the round that demoted the node
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<bool> fixed(n, false);
        for (size_t i = 0; i < n; ++i) fixed[i] = candidate[i] && ownQdq[i];
        int8 = closeInt8(graph, candidate, fixed, folded);
        std::vector<Precision> precisions(n, Precision::Fp32);
        for (size_t i = 0; i < n; ++i)
            if (int8[i]) precisions[i] = Precision::Int8;
        auto placed = placeQdq(graph, std::move(precisions), amax, options);
        if (!placed) return;  // the export will say what is wrong
        placement = std::move(placed).value();
        std::vector<bool> hasEdge(n, false);
        for (const QdqEdge& edge : placement.edges) hasEdge[static_cast<size_t>(edge.consumer)] = true;
        for (size_t i = 0; i < n; ++i) {
            const bool keeps = !ownQdq[i] || (placement.layers[i].precision == Precision::Int8 && hasEdge[i]);
            if (int8[i] && !keeps) {
                candidate[i] = false;
                changed = true;
                why[i] = notInt8Reason(graph, graph.node(static_cast<NodeId>(i)), placement.layers[i]);
            }
        }
    }
    for (const Node& node : graph.nodes()) {
        const size_t i = static_cast<size_t>(node.id);
        const Precision p = plan.effective(node.id);
        if (foldedInto[i] != kNoId) {
            const Precision layer = int8[i] ? Precision::Int8 : plan.effective(foldedInto[i]);
            if (p != layer)
                plan.setEffective(
                    node.id, layer,
                    "folded into '" + graph.node(foldedInto[i]).name + "' by the export: runs as it runs");
        } else if (int8[i] && p != Precision::Int8) {
            plan.setEffective(node.id, Precision::Int8, fusedReason(graph, node, mStrongTyping));
        } else if (!int8[i] && p == Precision::Int8) {
            const std::string reason = why[i].empty() ? notInt8Reason(graph, node, placement.layers[i]) : why[i];
            plan.setEffective(node.id, mFallback, reason + "; runs " + upperPrecisionName(mFallback));
        }
    }
}

PrecisionPlan writtenPrecisions(const Graph& graph, const std::vector<bool>& quantized, const std::vector<bool>& fp16,
                                bool strongTyping) {
    std::vector<bool> candidate(graph.nodes().size(), false);
    for (const Node& node : graph.nodes()) {
        const size_t i = static_cast<size_t>(node.id);
        candidate[i] = quantized[i] || (!fp16[i] && followsNeighboursIntoInt8(node));
    }
    const std::vector<bool> int8 = closeInt8(graph, candidate, quantized);
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const Node& node : graph.nodes()) {
        const size_t i = static_cast<size_t>(node.id);
        if (int8[i]) {
            plan.setRequested(node.id, Precision::Int8);
        } else if (fp16[i]) {
            plan.setRequested(node.id, Precision::Fp16);
        } else if (computesFloat(graph, node)) {
            plan.setRequested(node.id, strongTyping ? Precision::Fp32 : Precision::Fp16);
        }
    }
    return plan;
}

}  // namespace ql
