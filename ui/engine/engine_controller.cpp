#include "ui/engine/engine_controller.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/dialog_folder.h"
#include "ui/engine/engine_panel.h"
#include "ui/graph/graph_view.h"
#include "ui/model_document.h"

namespace ql::ui {

EngineController::EngineController(ModelDocument* document, GraphView* view, QWidget* window)
    : QObject(window), mDocument(document), mView(view), mWindow(window) {
    mImportAction = new QAction(tr("Import &Engine Report..."), this);
    mImportAction->setObjectName(QStringLiteral("ImportEngineAction"));
    mImportAction->setToolTip(
        tr("Read what TensorRT built: trtexec --exportLayerInfo (and --exportProfile) JSON files"));
    connect(mImportAction, &QAction::triggered, this, &EngineController::chooseAndImport);

    mStatusWidget = new QWidget(window);
    auto* layout = new QHBoxLayout(mStatusWidget);
    layout->setContentsMargins(0, 0, 0, 0);
    mStatusLabel = new QLabel(tr("Reading engine report..."), mStatusWidget);
    auto* bar = new QProgressBar(mStatusWidget);
    bar->setRange(0, 0);
    bar->setMaximumWidth(120);
    auto* cancelButton = new QToolButton(mStatusWidget);
    cancelButton->setText(tr("Cancel"));
    connect(cancelButton, &QToolButton::clicked, this, &EngineController::cancel);
    layout->addWidget(mStatusLabel);
    layout->addWidget(bar);
    layout->addWidget(cancelButton);
    mStatusWidget->hide();

    createColoringMenu();
    connect(&mWatcher, &QFutureWatcher<EngineLoad>::finished, this, &EngineController::jobFinished);
    connect(document, &ModelDocument::engineChanged, this, &EngineController::repaint);
    connect(document, &ModelDocument::latencyPredictionChanged, this, [this] {
        if (mColoring == NodeColoring::PredictedGain) repaint();
    });
    connect(view, &GraphView::layoutApplied, this, &EngineController::repaint);
    connect(document, &ModelDocument::modelReplaced, this,
            [this] { mImportAction->setEnabled(mDocument->model() != nullptr); });
    mImportAction->setEnabled(false);
}

EngineController::~EngineController() {
    mWatcher.waitForFinished();
}

void EngineController::createColoringMenu() {
    mColoringMenu = new QMenu(tr("&Color Nodes By"), mWindow);
    mColoringMenu->setObjectName(QStringLiteral("ColoringMenu"));
    mColoringGroup = new QActionGroup(mColoringMenu);
    for (NodeColoring coloring : {NodeColoring::OpFamily, NodeColoring::EnginePrecision, NodeColoring::EngineTime,
                                  NodeColoring::PredictedGain}) {
        QAction* action =
            mColoringMenu->addAction(nodeColoringName(coloring), this, [this, coloring] { setColoring(coloring); });
        action->setCheckable(true);
        action->setChecked(coloring == mColoring);
        action->setData(static_cast<int>(coloring));
        mColoringGroup->addAction(action);
    }
}

void EngineController::setColoring(NodeColoring coloring) {
    mColoring = coloring;
    for (QAction* action : mColoringGroup->actions())
        action->setChecked(action->data().toInt() == static_cast<int>(coloring));
    repaint();
}

void EngineController::repaint() {
    paintEngineOverlay(*mView, *mDocument, mColoring);
}

void EngineController::chooseAndImport() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        mWindow, tr("Import Engine Report (layer information, and its profile for the times)"), dialogFolder(mDocument),
        tr("trtexec JSON (*.json);;All files (*)"));
    if (!paths.isEmpty()) importFiles(paths);
}

bool EngineController::importFiles(const QStringList& paths) {
    if (!mDocument->model() || paths.isEmpty()) return false;
    if (mWatcher.isRunning()) {  // the running read cannot be interrupted; the newest request wins
        mPending = paths;
        mCancelled = true;
        return true;
    }
    mCancelled = false;
    mPending.clear();
    mJobModel = mDocument->sharedModel();
    const Graph& graph = mJobModel->graph();
    PlannedPrecisions planned = plannedFromPlan(graph, mDocument->plan(), mDocument->lint());
    mStatusWidget->show();
    mWatcher.setFuture(QtConcurrent::run(
        [paths, model = mJobModel, planned = std::move(planned)] { return loadEngineRun(paths, model, planned); }));
    return true;
}

void EngineController::cancel() {
    mCancelled = true;
    mPending.clear();
}

void EngineController::jobFinished() {
    mStatusWidget->hide();
    if (!mPending.isEmpty()) {
        importFiles(mPending);
        return;
    }
    const EngineLoad load = mWatcher.result();
    const bool sameModel = mJobModel == mDocument->sharedModel();
    mJobModel.reset();
    if (mCancelled || !sameModel) {
        emit statusMessage(mCancelled ? tr("Engine report import cancelled.")
                                      : tr("Engine report not applied: another model was opened meanwhile."));
        emit importFinished(false, {});
        return;
    }
    if (!load.run) {
        emit statusMessage(tr("Cannot import the engine report: %1").arg(load.error));
        emit importFinished(false, load.error);
        return;
    }
    if (mColoring == NodeColoring::OpFamily) mColoring = NodeColoring::EnginePrecision;
    mDocument->setEngineRun(load.run);  // repaints through engineChanged
    setColoring(mColoring);
    const QString warning = otherModelText(*load.run);
    if (!warning.isEmpty()) {
        emit statusMessage(tr("Engine report %1: %2").arg(QFileInfo(load.run->layersPath).fileName(), warning));
    } else {
        emit statusMessage(tr("Engine report %1: %2 layers, %3 differences from the plan")
                               .arg(QFileInfo(load.run->layersPath).fileName())
                               .arg(load.run->report->layers.size())
                               .arg(countPlanDifferences(load.run->analysis.mismatches).total()));
    }
    emit importFinished(true, {});
}

}  // namespace ql::ui
