#pragma once
// File > Import Engine Report... (and JSON files dropped on the window): reads trtexec's layer information and
// profile off the GUI thread (a big engine report takes a while to parse and map), with a busy strip and Cancel in
// the status bar; a cancelled or superseded import leaves the document as it was. View > Color Nodes By paints
// the report on the graph (engine_overlay.h), or the latency prediction (prediction_overlay.h), and follows every
// change of either, of the report's mismatches and of the layout.
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <memory>

#include "ui/engine/engine_overlay.h"
#include "ui/engine/engine_run.h"

class QAction;
class QActionGroup;
class QMenu;
class QWidget;
class QLabel;

namespace ql::ui {

class GraphView;
class ModelDocument;

class EngineController : public QObject {
    Q_OBJECT
public:
    EngineController(ModelDocument* document, GraphView* view, QWidget* window);
    ~EngineController() override;

    QAction* importAction() const { return mImportAction; }
    QMenu* coloringMenu() const { return mColoringMenu; }
    QWidget* statusWidget() const { return mStatusWidget; }

    NodeColoring coloring() const { return mColoring; }
    void setColoring(NodeColoring coloring);

    // Starts reading `paths` (the layer information and optionally the profile) for the document's model; false
    // when there is no model. A running import is superseded.
    bool importFiles(const QStringList& paths);
    void chooseAndImport();
    bool isBusy() const { return mWatcher.isRunning(); }
    void cancel();

signals:
    void statusMessage(const QString& text);
    // An import ended: `ok` when the document now holds its report.
    void importFinished(bool ok, const QString& error);

private:
    void createColoringMenu();
    void jobFinished();
    void repaint();

    ModelDocument* mDocument;
    GraphView* mView;
    QWidget* mWindow;
    QAction* mImportAction;
    QMenu* mColoringMenu = nullptr;
    QActionGroup* mColoringGroup = nullptr;
    QWidget* mStatusWidget;
    QLabel* mStatusLabel;
    NodeColoring mColoring = NodeColoring::OpFamily;
    QFutureWatcher<EngineLoad> mWatcher;
    std::shared_ptr<const Model> mJobModel;  // the model the running import maps to
    bool mCancelled = false;
    QStringList mPending;  // an import asked for while one runs
};

}  // namespace ql::ui
