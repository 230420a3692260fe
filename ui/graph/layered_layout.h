#pragma once
// A linear-time layered (Sugiyama-style) layout for graphs too big for dot: longest-path ranking, a few
// barycenter ordering sweeps, x-assignment by pulling each node towards its neighbours without overlap, and
// polyline edges through the ranks they cross.
#include "ui/graph/graph_layout.h"

namespace ql::ui {

// Fills layout.nodeRects / edgeRoutes / width / height from layout.graph.
GraphLayout layeredLayout(GraphLayout layout, const LayoutOptions& options);

}  // namespace ql::ui
