#pragma once
// The bodies of a model's control-flow nodes (If's branches, Loop's and Scan's body) as graphs of their own, built
// once per model (off the GUI thread, with the load) so that the precision table can list their layers and the
// document can plan them (PrecisionPlan::bodies, whose plans are over these graphs). Nested bodies hang under the
// body that holds them.
#include <string>
#include <vector>

#include "core/model/graph.h"
#include "core/model/subgraph_model.h"
#include "core/quant/precision_plan.h"
#include "ui/graph/body_search.h"

namespace ql::ui {

// Where a body is: the steps (control-flow node by name, graph attribute) from the main graph down to it.
using BodyPath = std::vector<BodyStep>;

struct BodyGraph {
    BodyPath path;                  // from the main graph; the last step is this body
    NodeId parent;                  // the control-flow node, in the enclosing graph
    SubgraphModel body;             // body.graph: the body's graph (node ids of its plan)
    std::vector<BodyGraph> bodies;  // nested, in node order, then attribute order
};

// A node inside a body: the body and the node's id in that body's graph.
struct BodyNodeRef {
    BodyPath path;
    NodeId node = kNoId;
    bool operator==(const BodyNodeRef&) const = default;
};

// The bodies of `graph`'s control-flow nodes, nested ones inside. A body that cannot be built (an invalid graph) is
// left out: it runs float, as a body without a plan does.
std::vector<BodyGraph> buildBodyGraphs(const Graph& graph);
// The body at `path`, or null.
const BodyGraph* findBodyGraph(const std::vector<BodyGraph>& bodies, const BodyPath& path);

// The layers of op type `opType` with a precision to choose (hasPrecisionChoice) in `bodies` and the bodies nested in
// them, in body order.
std::vector<BodyNodeRef> bodyNodesOfOp(const std::vector<BodyGraph>& bodies, const std::string& opType);

// The plan of the body at `path` inside `plan`, or null when that body (or one around it) has none.
const PrecisionPlan* bodyPlan(const PrecisionPlan& plan, const BodyPath& path);
// The plan of the body at `path`, added all FP32 (with the bodies around it) where there is none; null when `bodies`
// has no such body.
PrecisionPlan* ensureBodyPlan(PrecisionPlan& plan, const std::vector<BodyGraph>& bodies, const BodyPath& path);

// "route/then_branch/": the prefix of a body's node names in lint's findings and the graph's breadcrumb.
std::string bodyPathPrefix(const BodyPath& path);
// "route ▸ then_branch ▸ t1": where a body's node is, from the main graph.
std::string bodyNodeLabel(const BodyPath& path, const std::string& node);

}  // namespace ql::ui
