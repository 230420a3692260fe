#pragma once
// The window with the bundled sample and the engine report fixture of tests/data/engine/ (10.x, two planted
// mismatches: /block/block.3/Conv ran FP16, and the Q/DQ after /down/down.0/Conv stayed an extra reformat).
#include <QString>
#include <QStringList>

#include "core/model/graph.h"

namespace ql::ui {
class MainWindow;
}

namespace ql::test {

QString engineFixture(const char* file);  // tests/data/engine/<file>
// digits_int8.layers.json and digits_int8.profile.json.
QStringList engineFixtureReport();

// Opens the bundled sample in `window` and waits until its graph is laid out; false on time-out.
bool openSampleAndWait(ui::MainWindow& window);
// Imports `paths` through the window's engine controller and waits for the result; false when it failed.
bool importEngineAndWait(ui::MainWindow& window, const QStringList& paths = engineFixtureReport());
// The node of the window's model named `name`.
NodeId nodeNamed(const ui::MainWindow& window, const char* name);

}  // namespace ql::test
