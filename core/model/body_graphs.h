#pragma once
// The bodies of a model's control-flow nodes (If's branches, Loop's and Scan's body) as graphs of their own, nested
// ones under the body that holds them, and where each is: the steps from the main graph down to it. The window
// builds them once per model to list and plan their layers; `tune` builds them to find the layers of planned bodies.
#include <string>
#include <vector>

#include "core/model/graph.h"
#include "core/model/subgraph_model.h"

namespace ql {

struct BodyStep {
    std::string owner;      // the control-flow node, in the graph the step starts from
    std::string attribute;  // "then_branch", "else_branch", "body"
    bool operator==(const BodyStep&) const = default;
};

// Where a body is: the steps (control-flow node by name, graph attribute) from the main graph down to it.
using BodyPath = std::vector<BodyStep>;

struct BodyGraph {
    BodyPath path;                  // from the main graph; the last step is this body
    NodeId parent;                  // the control-flow node, in the enclosing graph
    SubgraphModel body;             // body.graph: the body's graph (node ids of its plan)
    std::vector<BodyGraph> bodies;  // nested, in node order, then attribute order
};

// The bodies of `graph`'s control-flow nodes, nested ones inside. A body that cannot be built (an invalid graph) is
// left out: it runs float, as a body without a plan does. `initializers`: as buildSubgraphModel (the node ids are the
// same either way).
std::vector<BodyGraph> buildBodyGraphs(const Graph& graph, OuterInitializers initializers = OuterInitializers::Inputs);
// The body at `path`, or null.
const BodyGraph* findBodyGraph(const std::vector<BodyGraph>& bodies, const BodyPath& path);

// "route/then_branch/": the prefix of a body's node and tensor names (body_path.h).
std::string bodyPathPrefix(const BodyPath& path);

}  // namespace ql
