#pragma once
// The window's side of the bodies of control-flow nodes (core/model/body_graphs.h, core/quant/body_plans.h): the
// layers of an op type across them, and how a body's node is labelled.
#include <string>
#include <vector>

#include "core/model/body_graphs.h"
#include "core/quant/body_plans.h"

namespace ql::ui {

// A node inside a body: the body and the node's id in that body's graph.
struct BodyNodeRef {
    BodyPath path;
    NodeId node = kNoId;
    bool operator==(const BodyNodeRef&) const = default;
};

// The layers of op type `opType` with a precision to choose (hasPrecisionChoice) in `bodies` and the bodies nested in
// them, in body order.
std::vector<BodyNodeRef> bodyNodesOfOp(const std::vector<BodyGraph>& bodies, const std::string& opType);

// "route ▸ then_branch ▸ t1": where a body's node is, from the main graph.
std::string bodyNodeLabel(const BodyPath& path, const std::string& node);

}  // namespace ql::ui
