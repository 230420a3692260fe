#pragma once
// Layered layout by Graphviz dot (libgvc). Calls are serialised: Graphviz keeps global state.
#include <optional>

#include "ui/graph/graph_layout.h"

namespace ql::ui {

// Fills layout.nodeRects / edgeRoutes / width / height from layout.graph; nullopt when Graphviz fails.
std::optional<GraphLayout> dotLayout(GraphLayout layout, const LayoutOptions& options);

}  // namespace ql::ui
