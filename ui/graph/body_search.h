#pragma once
// Search into the bodies of control-flow nodes (If, Loop, Scan; issue 29: Silero VAD does all its work inside If
// bodies, and search did not look there). A match names the bodies to open from the graph searched, outermost
// first, and the node's name in the innermost one; GraphView opens them and selects it.
#include <QString>
#include <string>
#include <vector>

#include "core/model/body_graphs.h"
#include "core/model/graph.h"

namespace ql::ui {

struct BodyMatch {
    std::vector<BodyStep> path;  // from the graph searched to the body holding the node
    std::string node;            // the node's name in that body
};

// The nodes inside the bodies of `graph` (nested ones too) whose name contains `text` or whose op type is `text`,
// ignoring case, in graph order, each body's matches after its owner's earlier bodies. At most `limit`. A body that
// does not build (malformed) is skipped: opening it says why.
std::vector<BodyMatch> searchBodies(const Graph& graph, const QString& text, size_t limit = 1000);

}  // namespace ql::ui
