#pragma once
// The first run's dock arrangement of the main window, for a window from 1280x800 up: findings (tabbed with the
// engine) over node properties on the right; along the bottom the tables (precision, nodes, diagnostics, log)
// tabbed on the left and the plots (layer error, output scatter, histogram) tabbed on the right, each plot as wide
// as a third of the window rather than three side by side at a quarter each.
class QMainWindow;

namespace ql::ui {

// Places the docks of `window` (found by object name); missing docks leave it as it is.
void arrangeDocks(QMainWindow& window);

// Gives the docks their first-run sizes as shares of the window, once it is shown: QMainWindow lays docks out only
// when its layout has a geometry, and sizes given before were redistributed (560, 360 and 360 pixels asked,
// 445, 535 and 290 got at 1280x800).
void sizeDocksWhenShown(QMainWindow& window);

}  // namespace ql::ui
