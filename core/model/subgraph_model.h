#pragma once
// The body of a control-flow node (If's branches, Loop's and Scan's body) as a model of its own, so that it can be
// shown, linted or run like a main graph: a ModelProto around a copy of the body, with the outer graph's opsets,
// whose graph inputs are the body's own followed by the values it reads from enclosing graphs (outer scope, as the
// ONNX spec lets a subgraph do), and the Graph built over it. Nested bodies open the same way, over the body's Graph.
//
//   auto body = buildSubgraphModel(graph, graph.node(id), "then_branch");
//   if (!body) return body.status();  // "Node (If_0) Op (If): in then_branch: ..."
//   for (const Node& node : body->graph.nodes()) ...
#include <memory>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/graph.h"

namespace onnx {
class GraphProto;
class ModelProto;
}  // namespace onnx

namespace ql {

struct SubgraphModel {
    SubgraphModel();
    ~SubgraphModel();
    SubgraphModel(SubgraphModel&&) noexcept;
    SubgraphModel& operator=(SubgraphModel&&) noexcept;

    std::unique_ptr<onnx::ModelProto> model;  // owns the copy of the body: `graph` points into it
    Graph graph;
};

// How the outer-scope graph inputs of a body's model are typed.
enum class OuterScopeTypes {
    FromOuterGraph,  // as the outer graph knows them (to show or lint the body)
    Untyped,         // to run it: the executor would check each value against the outer graph's inferred type
};

// What the outer-scope values a body reads that are initializers of the enclosing graph become in the body's model.
enum class OuterInitializers {
    Inputs,  // graph inputs like every other outer-scope value (to show the body: its edges to the enclosing graph)
    // copies of the initializers (held in memory), so that the body's layers see their weights as constants, as
    // TensorRT and the main graph's layers do: to plan, lint, simulate or export the body. PyTorch's exports of
    // Silero VAD keep every weight of both branches in the main graph.
    Copied,
};

// A model holding a copy of `body` alone: `outer`'s opsets, and the outer-scope values it reads (outerScopeNames)
// as graph inputs after its own.
onnx::ModelProto subgraphModelProto(const Graph& outer, const onnx::GraphProto& body, OuterScopeTypes types,
                                    OuterInitializers initializers = OuterInitializers::Inputs);

// The body in attribute `attribute` of `node`, a node of `outer`, with its outer-scope inputs typed from `outer`.
// Fails (InvalidModel), naming the node and the attribute, when the attribute is missing or not a graph, or when the
// body is not a valid graph (an undefined input, a tensor written twice, a cycle, external data). The nodes, and so
// their ids, are the same whichever `initializers`.
Result<SubgraphModel> buildSubgraphModel(const Graph& outer, const Node& node, const std::string& attribute,
                                         OuterInitializers initializers = OuterInitializers::Inputs);

// Names a subgraph reads that it does not define (inputs, initializers, node outputs), its nested subgraphs'
// included, in first-seen order: the values it takes from outer scope.
std::vector<std::string> outerScopeNames(const onnx::GraphProto& graph);

}  // namespace ql
