// Multiply-accumulate counts and weight bytes of the weighted layers (Conv, ConvTranspose, Gemm, MatMul),
// from the shapes shape inference gave, or those a run saw where inference could not reach (observed_costs.h).
// Unknown dimensions (e.g. a symbolic batch) count as 1, and the count says it is approximate.
#include <functional>
#include <numeric>

#include "core/model/graph_builder.h"

namespace ql {

namespace {

struct Dims {
    std::vector<int64_t> sizes;
    bool approximate = false;
    bool valid = false;
};

// The inferred shape of a value, or the one the run saw (`observed`, may be null) where inference left it open.
Dims dimsOf(const Graph& graph, ValueId id, const ObservedShapes* observed) {
    Dims d;
    if (id == kNoId) return d;
    const TensorType& type = graph.value(id).type;
    if (observed != nullptr && !(type.hasShape && type.fullyKnown())) {
        if (auto it = observed->shapes.find(id); it != observed->shapes.end()) {
            d.sizes = it->second;
            d.approximate = observed->approximate;
            d.valid = true;
            return d;
        }
    }
    if (!type.hasShape) return d;
    d.valid = true;
    for (const Dim& dim : type.dims) {
        if (dim.known()) {
            d.sizes.push_back(dim.size);
        } else {
            d.sizes.push_back(1);
            d.approximate = true;
        }
    }
    return d;
}

int64_t product(const std::vector<int64_t>& v, size_t from = 0) {
    if (from >= v.size()) return 1;
    return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), int64_t{1}, std::multiplies<>());
}

ValueId inputAt(const Node& node, size_t i) {
    return i < node.inputs.size() ? node.inputs[i] : kNoId;
}
ValueId outputAt(const Node& node, size_t i) {
    return i < node.outputs.size() ? node.outputs[i] : kNoId;
}

LayerCost convCost(const Graph& graph, const Node& node, bool transposed, const ObservedShapes* observed) {
    LayerCost cost;
    const Dims w = dimsOf(graph, inputAt(node, 1), observed);
    const Dims io = dimsOf(graph, transposed ? inputAt(node, 0) : outputAt(node, 0), observed);
    if (!w.valid || !io.valid || w.sizes.size() < 2 || io.sizes.size() < 2) return cost;
    // Conv: every output element needs (C_in/group * kernel) MACs; weights [C_out, C_in/group, k...].
    // ConvTranspose: every input element feeds (C_out/group * kernel) MACs; weights [C_in, C_out/group, k...].
    cost.macs = product(io.sizes) * product(w.sizes, 1);
    cost.approximate = w.approximate || io.approximate;
    return cost;
}

LayerCost gemmCost(const Graph& graph, const Node& node, const ObservedShapes* observed) {
    LayerCost cost;
    const Dims a = dimsOf(graph, inputAt(node, 0), observed);
    const Dims y = dimsOf(graph, outputAt(node, 0), observed);
    if (!a.valid || !y.valid || a.sizes.size() != 2 || y.sizes.size() != 2) return cost;
    const int64_t k = node.intAttribute("transA", 0) ? a.sizes[0] : a.sizes[1];
    cost.macs = y.sizes[0] * y.sizes[1] * k;
    cost.approximate = a.approximate || y.approximate;
    return cost;
}

LayerCost matMulCost(const Graph& graph, const Node& node, const ObservedShapes* observed) {
    LayerCost cost;
    const Dims a = dimsOf(graph, inputAt(node, 0), observed);
    const Dims y = dimsOf(graph, outputAt(node, 0), observed);
    if (!a.valid || !y.valid || a.sizes.empty()) return cost;
    // Output elements times the reduced dimension K (the last dim of A).
    cost.macs = product(y.sizes) * a.sizes.back();
    cost.approximate = a.approximate || y.approximate;
    return cost;
}

LayerCost layerCost(const Graph& graph, const Node& node, const ObservedShapes* observed) {
    if (node.opType == "Conv") return convCost(graph, node, false, observed);
    if (node.opType == "ConvTranspose") return convCost(graph, node, true, observed);
    if (node.opType == "Gemm") return gemmCost(graph, node, observed);
    return matMulCost(graph, node, observed);
}

}  // namespace

bool isCostedLayer(const Node& node) {
    return node.domain.empty() && (node.opType == "Conv" || node.opType == "ConvTranspose" || node.opType == "Gemm" ||
                                   node.opType == "MatMul");
}

void computeLayerCosts(Graph& graph, const ObservedShapes* observed) {
    for (Node& node : graph.mNodes) {
        if (!isCostedLayer(node)) continue;
        LayerCost cost = layerCost(graph, node, observed);
        for (ValueId in : node.inputs)
            if (const Initializer* init = graph.initializerOf(in))
                cost.parameterBytes += static_cast<int64_t>(init->byteSize);
        node.cost = cost;
    }
}

}  // namespace ql
