#pragma once
#include <memory>

#include "core/common/status.h"
#include "core/model/graph.h"

namespace onnx {
class ModelProto;
}

namespace ql {

class ExternalDataResolver;

// Builds a Graph over a ModelProto that outlives it. Fails (InvalidModel) on what makes the graph
// meaningless: an undefined input, a tensor produced twice, a cycle, an unknown graph output.
class GraphBuilder {
public:
    static Result<Graph> build(const onnx::ModelProto& model, ExternalDataResolver& externalData);
    // Takes the types of `model` again (after shape inference wrote its value_info and outputs) into a graph
    // built from it: the graph then equals a new build, without building it again.
    static void retype(Graph& graph, const onnx::ModelProto& model);

private:
    GraphBuilder(const onnx::ModelProto& model, ExternalDataResolver& externalData)
        : mModel(model), mExternal(&externalData) {}
    GraphBuilder(const onnx::ModelProto& model, Graph&& graph) : mModel(model), mGraph(std::move(graph)) {}
    Status addInitializers();
    Status addGraphInputs();
    Status addNodes();
    Status sortTopologically();
    Status markOutputs();
    void applyOutputTypes();
    void applyValueInfo();
    ValueId valueFor(const std::string& name);

    const onnx::ModelProto& mModel;
    ExternalDataResolver* mExternal = nullptr;  // null when retyping
    Graph mGraph;
};

// Filled in after the graph is built (separate files).
void linkQdqPairs(Graph& graph);
// `observed` (may be null): the shapes a run saw, taken for every value whose inferred shape is not fully known.
void computeLayerCosts(Graph& graph, const ObservedShapes* observed = nullptr);
// The layers that get a cost: Conv, ConvTranspose, Gemm and MatMul of the default domain.
bool isCostedLayer(const Node& node);

}  // namespace ql
