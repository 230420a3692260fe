#pragma once
// The graph view's entries of the View menu: Find Next / Find Previous (F3 / Shift+F3), Collapse All / Expand All,
// Show Tensor Shapes (labels on the edges) and Mouse Wheel Zooms (the other wheel convention: plain wheel zooms,
// Ctrl+wheel scrolls). The two check boxes are settings, kept in QSettings.
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
