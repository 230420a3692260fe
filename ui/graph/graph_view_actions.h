#pragma once
// The graph view's entries of the View menu: Find Next / Find Previous (F3 / Shift+F3), Collapse All / Expand All,
// Show Tensor Shapes (labels on the edges), Mouse Wheel Zooms (the other wheel convention: plain wheel zooms,
// Ctrl+wheel scrolls), Fit to Window As Laid Out (one column) and Show Overview (the minimap). The three check boxes
// are settings, kept in QSettings.
//
//   addGraphViewActions(viewMenu, graphView, searchBar);
class QMenu;

namespace ql::ui {

class GraphSearchBar;
class GraphView;

inline constexpr char kWheelZoomsSetting[] = "graph/wheelZooms";
inline constexpr char kShowTensorShapesSetting[] = "graph/showTensorShapes";

void addGraphViewActions(QMenu* menu, GraphView* view, GraphSearchBar* search);

}  // namespace ql::ui
