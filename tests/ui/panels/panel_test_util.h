#pragma once
// Shared by the panel tests: the bundled sample model, opening it in a window and waiting for the graph.
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

#include "tests/ui/window_test_util.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"

namespace ql::test {

inline QString sampleModelPath() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

// Opens `path` and waits until the model is in the document and the graph is laid out.
inline bool openAndWaitForLayout(ui::MainWindow& window, const QString& path) {
    if (!openAndWait(window, path)) return false;
    auto* view = window.findChild<ui::GraphView*>();
    return view && QTest::qWaitFor(
                       [&] { return view->graphScene()->layout() && !view->graphScene()->isLayoutPending(); }, 60000);
}

// The value of the row `name` under the section whose title starts with `section` (Node Properties' tree).
inline QString rowValue(const QTreeWidget* tree, const QString& section, const QString& name) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* s = tree->topLevelItem(i);
        if (!s->text(0).startsWith(section)) continue;
        for (int j = 0; j < s->childCount(); ++j)
            if (s->child(j)->text(0) == name) return s->child(j)->text(1);
    }
    return QStringLiteral("<no row %1 in %2>").arg(name, section);
}

}  // namespace ql::test
