#include "core/quant/default_placement.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ql {
namespace {

enum class Role { Other, Weighted, Epilogue, Quantizable, PassThrough };

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
    if (in(quantizable)) return Role::Quantizable;
    if (in(passThrough)) return Role::PassThrough;
    return Role::Other;
}

bool isFloat(DataType d) {
    return d == DataType::Float || d == DataType::Float16 || d == DataType::BFloat16 || d == DataType::Double ||
           d == DataType::Undefined;
}

class Placement {
public:
    explicit Placement(const Graph& graph) : mGraph(graph), mInt8(graph.nodes().size(), false) {}

    // Pass-through nodes depend on their consumers and consumers on their producers, so chains of them
    // (Reshape -> Transpose) need the greatest fixed point: a forward pass that ignores the consumers
    // over-approximates, then nodes whose rule fails are demoted until nothing changes.
    std::vector<bool> run() {
        for (const Node& n : mGraph.nodes()) {
            const Role role = roleOf(n);
            mInt8[static_cast<size_t>(n.id)] =
                role == Role::Weighted || (role != Role::Other && decide(n, role, false));
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (const Node& n : mGraph.nodes()) {
                const Role role = roleOf(n);
                if (role == Role::Weighted || !mInt8[static_cast<size_t>(n.id)] || decide(n, role, true)) continue;
                mInt8[static_cast<size_t>(n.id)] = false;
                changed = true;
            }
        }
        return mInt8;
    }

private:
    bool decide(const Node& n, Role role, bool checkConsumers) const {
        const std::vector<NodeId> producers = floatProducers(n);
        const auto int8 = [&](NodeId id) { return id != kNoId && mInt8[static_cast<size_t>(id)]; };
        switch (role) {
            case Role::Epilogue:
                return !producers.empty() && int8(producers.front());
            case Role::Quantizable:
                return std::any_of(producers.begin(), producers.end(), int8);
            case Role::PassThrough:
                return !producers.empty() && std::all_of(producers.begin(), producers.end(), int8) &&
                       (!checkConsumers || allConsumersInt8(n));
            default:
                return false;
        }
    }

    // Producers of the float, non-initializer inputs (kNoId for a graph input).
    std::vector<NodeId> floatProducers(const Node& n) const {
        std::vector<NodeId> producers;
        for (ValueId v : n.inputs) {
            if (v == kNoId) continue;
            const Value& value = mGraph.value(v);
            if (value.initializer >= 0 || !isFloat(value.type.dtype)) continue;
            producers.push_back(value.producer);
        }
        return producers;
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
    std::vector<bool> mInt8;
};

}  // namespace

PrecisionPlan defaultPrecisionPlan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp32);
    const std::vector<bool> int8 = Placement(graph).run();
    for (size_t i = 0; i < int8.size(); ++i)
        if (int8[i]) plan.setRequested(static_cast<NodeId>(i), Precision::Int8);
    return plan;
}

}  // namespace ql
