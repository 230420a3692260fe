#include "core/exec/observed_costs.h"

#include <algorithm>
#include <set>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
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

bool hasOpenInputDim(const Graph& graph) {
    return std::any_of(graph.inputs().begin(), graph.inputs().end(), [&](ValueId id) {
        const TensorType& type = graph.value(id).type;
        return std::any_of(type.dims.begin(), type.dims.end(), [](const Dim& d) { return !d.known(); });
    });
}

// Keeps the shape of the values it is asked for; wanting only those keeps the run's fused groups fused.
class ShapeRecorder final : public TensorObserver {
public:
    explicit ShapeRecorder(std::set<ValueId> wanted) : mWanted(std::move(wanted)) {}
    bool wants(ValueId value) const override { return mWanted.contains(value); }
    bool acceptsLayouts() const override { return true; }  // the shape is all it reads
    void observe(const Node&, ValueId value, const Tensor& tensor) override { mShapes[value] = tensor.shape(); }
    std::unordered_map<int32_t, std::vector<int64_t>> take() { return std::move(mShapes); }

private:
    std::set<ValueId> mWanted;
    std::unordered_map<int32_t, std::vector<int64_t>> mShapes;
};

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
    std::set<ValueId> wanted;
    for (const Node& node : graph.nodes())
        if (isCostedLayer(node))
            for (ValueId id : costedValues(node)) wanted.insert(id);
    QL_ASSIGN_OR_RETURN(NamedTensors inputs, randomInputs(graph));
    QL_ASSIGN_OR_RETURN(auto executor,
                        Executor::create(graph, {.threads = threads, .fuse = true, .cacheWeights = false}));
    ShapeRecorder recorder(std::move(wanted));
    RunOptions run;
    run.observer = &recorder;
    QL_RETURN_IF_ERROR(executor->run(inputs, run).status());
    model.applyObservedShapes({.shapes = recorder.take(), .approximate = hasOpenInputDim(graph)});
    return Status::ok();
}

}  // namespace ql
