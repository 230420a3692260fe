#include "core/quant/default_placement.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>

#include "core/model/attention_pattern.h"
#include "core/model/constant_values.h"
#include "core/model/fp16_form.h"
#include "core/model/matrix_product_shape.h"
#include "core/model/op_roles.h"
#include "core/quant/realized_precision.h"

namespace ql {
namespace {

enum class Role { Other, Weighted, Epilogue, Silu, Quantizable, PassThrough };

Role roleOf(const Node& node) {
    if (!node.domain.empty() && node.domain != "ai.onnx") return Role::Other;
    constexpr std::array<std::string_view, 4> weighted = {"Conv", "ConvTranspose", "Gemm", "MatMul"};
    constexpr std::array<std::string_view, 4> epilogue = {"Relu", "LeakyRelu", "Clip", "BatchNormalization"};
    constexpr std::array<std::string_view, 5> quantizable = {"Add", "AveragePool", "GlobalAveragePool", "MaxPool",
                                                             "GlobalMaxPool"};
    constexpr std::array<std::string_view, 16> passThrough = {
        "Reshape",  "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Concat", "Slice",        "Split",
        "Identity", "Pad",     "Resize",    "Gather",  "Tile",      "Expand", "DepthToSpace", "SpaceToDepth"};
    const auto in = [&](const auto& list) { return std::find(list.begin(), list.end(), node.opType) != list.end(); };
    if (in(weighted)) return Role::Weighted;
    if (in(epilogue)) return Role::Epilogue;
    if (node.opType == "Sigmoid" || node.opType == "Mul") return Role::Silu;
    if (in(quantizable)) return Role::Quantizable;
    if (in(passThrough)) return Role::PassThrough;
    return Role::Other;
}

// Weighted layers the placement keeps in float, with the note that says why.
using FloatLayers = std::map<NodeId, const char*>;

// Producers of the float, non-constant inputs (kNoId for a graph input).
std::vector<NodeId> floatProducers(const Graph& graph, const Node& n) {
    std::vector<NodeId> producers;
    for (ValueId v : n.inputs) {
        if (v == kNoId) continue;
        const Value& value = graph.value(v);
        // A Constant node's output counts as the initializer the export makes of it (a Resize's scales).
        if (value.initializer >= 0 || !isFloatOrUnknown(value.type.dtype) || isConstant(graph, v)) continue;
        producers.push_back(value.producer);
    }
    return producers;
}

// x of x * Sigmoid(x) (SiLU / Swish) when `n` is that Sigmoid or that Mul: TensorRT fuses both into the
// layer producing x (Conv+SiLU), so they follow it into INT8 without Q/DQ of their own (ModelOpt's fusible
// Conv->Sigmoid->Mul partition: graph_utils.get_fusible_backbone, partitioning.py).
std::optional<ValueId> siluInput(const Graph& graph, const Node& n) {
    const auto sigmoidOf = [&](ValueId v) -> std::optional<ValueId> {
        const NodeId p = v == kNoId ? kNoId : graph.value(v).producer;
        if (p == kNoId || graph.node(p).opType != "Sigmoid" || graph.node(p).inputs.empty()) return std::nullopt;
        return graph.node(p).inputs[0];
    };
    if (n.opType == "Mul" && n.inputs.size() == 2) {
        for (int i = 0; i < 2; ++i)
            if (sigmoidOf(n.inputs[static_cast<size_t>(i)]) == n.inputs[static_cast<size_t>(1 - i)])
                return n.inputs[static_cast<size_t>(1 - i)];
        return std::nullopt;
    }
    if (n.opType != "Sigmoid" || n.inputs.empty() || n.outputs.empty() || n.outputs[0] == kNoId) return std::nullopt;
    for (NodeId c : graph.value(n.outputs[0]).consumers)
        if (siluInput(graph, graph.node(c)) == n.inputs[0]) return n.inputs[0];
    return std::nullopt;
}

}  // namespace

NodeId fusedProducer(const Graph& graph, const Node& node) {
    const Role role = roleOf(node);
    if (role == Role::Silu) {
        const std::optional<ValueId> x = siluInput(graph, node);
        return x ? graph.value(*x).producer : kNoId;
    }
    if (role != Role::Epilogue) return kNoId;
    const std::vector<NodeId> producers = floatProducers(graph, node);
    return producers.empty() ? kNoId : producers.front();
}

namespace {

class Placement {
public:
    Placement(const Graph& graph, const FloatLayers& floatLayers)
        : mGraph(graph), mFloat(floatLayers), mInt8(graph.nodes().size(), false), mComputed(constantComputed(graph)) {}
    Placement(const Graph& graph, const FloatLayers& floatLayers, std::vector<bool> candidates, std::vector<bool> fixed,
              std::vector<bool> computed)
        : mGraph(graph),
          mFloat(floatLayers),
          mInt8(std::move(candidates)),
          mFixed(std::move(fixed)),
          mComputed(computed.empty() ? constantComputed(graph) : std::move(computed)) {}

    // Pass-through nodes depend on their consumers and consumers on their producers, so chains of them
    // (Reshape -> Transpose) need the greatest fixed point: a forward pass that ignores the consumers
    // over-approximates, then nodes whose rule fails are demoted until nothing changes.
    std::vector<bool> run() {
        for (const Node& n : mGraph.nodes()) {
            const Role role = roleOf(n);
            mInt8[static_cast<size_t>(n.id)] =
                role == Role::Weighted ? mFloat.count(n.id) == 0 : role != Role::Other && decide(n, role, false);
        }
        return demote();
    }

    // Demotes the nodes whose rule fails until nothing changes; weighted nodes keep what they have.
    std::vector<bool> demote() {
        for (bool changed = true; changed;) {
            changed = false;
            for (const Node& n : mGraph.nodes()) {
                const Role role = roleOf(n);
                const size_t i = static_cast<size_t>(n.id);
                if (role == Role::Weighted || !mInt8[i] || (!mFixed.empty() && mFixed[i]) || decide(n, role, true))
                    continue;
                mInt8[i] = false;
                changed = true;
            }
        }
        return mInt8;
    }

private:
    bool decide(const Node& n, Role role, bool checkConsumers) const {
        std::vector<NodeId> producers = floatProducers(mGraph, n);
        // A value computed from constants alone is an initializer of the export (BlazeFace's channel padding:
        // Concat(x, ConstantOfShape(...))), not a float neighbour.
        std::erase_if(producers, [&](NodeId p) { return p != kNoId && mComputed[static_cast<size_t>(p)]; });
        const auto int8 = [&](NodeId id) { return id != kNoId && mInt8[static_cast<size_t>(id)]; };
        switch (role) {
            case Role::Epilogue:
            case Role::Silu:
                return int8(fusedProducer(mGraph, n)) && (n.opType != "BatchNormalization" || foldsInto(n));
            case Role::Quantizable:
                return std::any_of(producers.begin(), producers.end(), int8);
            case Role::PassThrough:
                return !producers.empty() && std::all_of(producers.begin(), producers.end(), int8) &&
                       (!checkConsumers || allConsumersInt8(n));
            default:
                return false;
        }
    }

    // A BatchNormalization runs INT8 only folded into the weighted layer before it (the export folds it there);
    // after a Concat, a pool or an Add it stays a float layer of its own.
    bool foldsInto(const Node& n) const {
        const NodeId producer = fusedProducer(mGraph, n);
        return producer != kNoId && roleOf(mGraph.node(producer)) == Role::Weighted;
    }

    bool allConsumersInt8(const Node& n) const {
        bool any = false;
        for (ValueId v : n.outputs) {
            if (v == kNoId) continue;
            const Value& value = mGraph.value(v);
            if (value.isGraphOutput) return false;
            for (NodeId c : value.consumers) {
                if (!mInt8[static_cast<size_t>(c)]) return false;
                any = true;
            }
        }
        return any;
    }

    const Graph& mGraph;
    const FloatLayers& mFloat;
    std::vector<bool> mInt8;
    std::vector<bool> mFixed;     // nodes that stay INT8 whatever their rule says; empty: none
    std::vector<bool> mComputed;  // constantComputed: folded into initializers by the export
};

// YOLO-style detector heads (Ultralytics' TensorRT export, ultralytics/utils/export/engine.py).

// The nodes reached from `node`'s outputs through data movement only (the first non-moving node of each path).
template <typename Visit>
void forEachReached(const Graph& graph, const Node& node, Visit&& visit, int depth = 0) {
    if (depth > 16) return;  // heads are a few reshapes deep; a long chain is no head
    for (ValueId v : node.outputs) {
        if (v == kNoId) continue;
        for (NodeId c : graph.value(v).consumers) {
            const Node& consumer = graph.node(c);
            if (movesData(consumer))
                forEachReached(graph, consumer, visit, depth + 1);
            else
                visit(consumer);
        }
    }
}

// Whether `node`'s outputs reach a graph output through data movement only.
bool reachesOutput(const Graph& graph, const Node& node, int depth = 0) {
    if (depth > 16) return false;
    for (ValueId v : node.outputs) {
        if (v == kNoId) continue;
        if (graph.value(v).isGraphOutput) return true;
        for (NodeId c : graph.value(v).consumers)
            if (movesData(graph.node(c)) && reachesOutput(graph, graph.node(c), depth + 1)) return true;
    }
    return false;
}

// YOLOv8's DFL: a Conv over a Softmax's probabilities (the expected distance over the bins).
bool isDfl(const Graph& graph, const Node& node) {
    if (node.opType != "Conv" || node.inputs.empty() || node.inputs[0] == kNoId) return false;
    const Node* p = computingProducer(graph, node.inputs[0]);
    return p != nullptr && p->opType == "Softmax";
}

// A head's final conv: its output reaches, through data movement, the DFL's Softmax or the class scores' Sigmoid
// on their way to the output.
bool isHeadOutputConv(const Graph& graph, const Node& node) {
    bool head = false;
    forEachReached(graph, node, [&](const Node& reached) {
        if (reached.opType == "Sigmoid" && reachesOutput(graph, reached)) head = true;
        if (reached.opType == "Softmax")
            forEachReached(graph, reached, [&](const Node& after) { head = head || isDfl(graph, after); });
    });
    return head;
}

constexpr const char* kDflNote =
    "YOLO DFL: a Conv over softmax probabilities with weights 0..15; INT8 moves every box side by a fraction of a "
    "stride, so Ultralytics' TensorRT export keeps it in float (ultralytics/utils/export/engine.py)";
constexpr const char* kHeadNote =
    "YOLO head's final conv (box distribution or class logits): kept in float, as Ultralytics' TensorRT export "
    "does (ultralytics/utils/export/engine.py)";

// Detector heads in float: only in a model that has a DFL, so classifiers and segmenters keep their last layers.
void keepDetectorHeadsInFloat(const Graph& graph, FloatLayers& floatLayers) {
    const auto& nodes = graph.nodes();
    if (std::none_of(nodes.begin(), nodes.end(), [&](const Node& n) { return isDfl(graph, n); })) return;
    for (const Node& node : nodes) {
        if (roleOf(node) != Role::Weighted) continue;
        if (isDfl(graph, node))
            floatLayers.emplace(node.id, kDflNote);
        else if (isHeadOutputConv(graph, node))
            floatLayers.emplace(node.id, kHeadNote);
    }
}

constexpr int64_t kMaxInt8AttentionLength = 512;
constexpr const char* kLongAttentionNote =
    "attention over more than 512 tokens: TensorRT's INT8 MHA kernel stops at 512 and NVIDIA's Model Optimizer "
    "keeps such attention in float (trt-int8-attention-shape)";

// Both batched MatMuls of attention longer than TensorRT's INT8 MHA kernel takes stay in float, as ModelOpt does.
void keepLongAttentionInFloat(const Graph& graph, FloatLayers& floatLayers) {
    for (const AttentionPattern& p : findAttentionPatterns(graph)) {
        if (p.context == kNoId || std::max(p.queryLength, p.keyLength) <= kMaxInt8AttentionLength) continue;
        floatLayers.emplace(p.scores, kLongAttentionNote);
        floatLayers.emplace(p.context, kLongAttentionNote);
    }
}

constexpr const char* kMatrixVectorNote =
    "matrix-vector product (M or N = 1, a classifier head at batch 1): no tensor cores, the Q/DQ cost more than INT8 "
    "saves, so NVIDIA's Model Optimizer keeps it in float (trt-int8-gemv)";

// MatMul/Gemm with one output row or column stay in float, as ModelOpt's find_nodes_from_matmul_to_exclude does.
void keepMatrixVectorProductsInFloat(const Graph& graph, FloatLayers& floatLayers) {
    for (const Node& node : graph.nodes())
        if (roleOf(node) == Role::Weighted && matrixProductShape(graph, node).matrixVector())
            floatLayers.emplace(node.id, kMatrixVectorNote);
}

bool writesFloat16(const Graph& graph, const Node& node) {
    return std::any_of(node.outputs.begin(), node.outputs.end(),
                       [&](ValueId v) { return v != kNoId && graph.value(v).type.dtype == DataType::Float16; });
}

// A model that carries float16 tensors says itself which layers compute in FP16 (a strongly typed export).
bool carriesFloat16(const Graph& graph) {
    return std::any_of(graph.values().begin(), graph.values().end(),
                       [](const Value& v) { return v.type.dtype == DataType::Float16; });
}

}  // namespace

std::vector<bool> closeInt8(const Graph& graph, std::vector<bool> candidates, std::vector<bool> fixed,
                            std::vector<bool> computed) {
    const FloatLayers none;
    for (const Node& n : graph.nodes()) {
        const size_t i = static_cast<size_t>(n.id);
        if (roleOf(n) == Role::Other && (fixed.empty() || !fixed[i])) candidates[i] = false;
        if (!fixed.empty() && fixed[i]) candidates[i] = true;
    }
    return Placement(graph, none, std::move(candidates), std::move(fixed), std::move(computed)).demote();
}

bool followsNeighboursIntoInt8(const Node& node) {
    const Role role = roleOf(node);
    return role == Role::Epilogue || role == Role::Silu || role == Role::PassThrough;
}

PrecisionPlan defaultPrecisionPlan(const Graph& graph) {
    FloatLayers floatLayers;
    keepDetectorHeadsInFloat(graph, floatLayers);
    keepLongAttentionInFloat(graph, floatLayers);
    keepMatrixVectorProductsInFloat(graph, floatLayers);
    PrecisionPlan plan(graph, Precision::Fp32);
    const std::vector<bool> int8 = Placement(graph, floatLayers).run();
    const bool typed = carriesFloat16(graph);
    for (const Node& node : graph.nodes()) {
        const auto note = floatLayers.find(node.id);
        if (int8[static_cast<size_t>(node.id)]) {
            plan.setRequested(node.id, Precision::Int8);
        } else if (note != floatLayers.end()) {
            plan.setRequested(node.id, Precision::Fp16, note->second);
        } else if (typed ? writesFloat16(graph, node) : computesFloat(graph, node)) {
            plan.setRequested(node.id, Precision::Fp16);
        }
    }
    return plan;
}

int startDetectorHeadsInInt8(PrecisionPlan& plan) {
    int moved = 0;
    for (NodeId id = 0; id < static_cast<NodeId>(plan.size()); ++id) {
        const std::string& note = plan.placementNote(id);
        if (note != kDflNote && note != kHeadNote) continue;
        plan.setRequested(id, Precision::Int8);
        ++moved;
    }
    return moved;
}

}  // namespace ql
