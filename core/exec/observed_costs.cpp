#include "core/exec/observed_costs.h"

#include <algorithm>

#include "core/exec/observed_shapes.h"
#include "core/model/graph_builder.h"

namespace ql {

namespace {

// The values a layer's MACs are computed from: its input, weight and output.
std::vector<ValueId> costedValues(const Node& node) {
    std::vector<ValueId> values;
    for (size_t i = 0; i < 2 && i < node.inputs.size(); ++i) values.push_back(node.inputs[i]);
    if (!node.outputs.empty()) values.push_back(node.outputs[0]);
    values.erase(std::remove(values.begin(), values.end(), kNoId), values.end());
    return values;
}

// A shape inference could not reach. A named symbol (a dynamic batch) is not one: a run would take it as 1 too.
bool unreached(const Graph& graph, ValueId id) {
    const TensorType& type = graph.value(id).type;
    return !type.hasShape ||
           std::any_of(type.dims.begin(), type.dims.end(), [](const Dim& d) { return !d.known() && d.symbol.empty(); });
}

}  // namespace

bool costsNeedARun(const Graph& graph) {
    return std::any_of(graph.nodes().begin(), graph.nodes().end(), [&](const Node& node) {
        if (!isCostedLayer(node)) return false;
        const std::vector<ValueId> values = costedValues(node);
        return std::any_of(values.begin(), values.end(), [&](ValueId id) { return unreached(graph, id); });
    });
}

Status measureLayerCosts(Model& model, int threads) {
    const Graph& graph = model.graph();
    if (!costsNeedARun(graph)) return Status::ok();
    std::vector<bool> wanted(graph.values().size(), false);
    for (const Node& node : graph.nodes())
        if (isCostedLayer(node))
            for (ValueId id : costedValues(node)) wanted[static_cast<size_t>(id)] = true;
    QL_ASSIGN_OR_RETURN(const ObservedTensors seen, observeTensors(graph, wanted, 1, threads));
    ObservedShapes observed{.shapes = {}, .approximate = hasOpenInputDims(graph)};
    for (const auto& [id, tensor] : seen) observed.shapes[id] = tensor.shape;
    model.applyObservedShapes(observed);
    return Status::ok();
}

}  // namespace ql
