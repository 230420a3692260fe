#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTime>
#include <QToolBar>
#include <QTreeWidget>
#include <QUndoStack>

#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/dialog_folder.h"
#include "ui/dock_layout.h"
#include "ui/engine/ab_import_controller.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/engine_files.h"
#include "ui/engine/engine_panel.h"
#include "ui/engine/gpu_fit_controller.h"
#include "ui/engine/latency_prediction_controller.h"
#include "ui/fold_inputs_dialog.h"
#include "ui/graph/graph_search_bar.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/graph_view_actions.h"
#include "ui/help/help_menu.h"
#include "ui/import_controller.h"
#include "ui/memory_release.h"
#include "ui/message_box.h"
#include "ui/model_document.h"
#include "ui/model_loader.h"
#include "ui/node_list_model.h"
#include "ui/panels/findings_panel.h"
#include "ui/panels/float_import_offer.h"
#include "ui/panels/node_properties_panel.h"
#include "ui/panels/precision_panel.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/project_controller.h"
#include "ui/project_file.h"
#include "ui/theme.h"
#include "ui/trt_target_controller.h"
#include "ui/tuning/tune_controller.h"

namespace ql::ui {

namespace {

// Shown while a big graph's edit is checked against TensorRT's rules off the GUI thread.
QString relintMessage() {
    return QObject::tr("Applying TensorRT's rules and the lint to the edit...");
}

}  // namespace

QString onnxPathFromMime(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (path.endsWith(QStringLiteral(".onnx"), Qt::CaseInsensitive) ||
            path.endsWith(QStringLiteral(".qlproj"), Qt::CaseInsensitive))
            return path;
    }
    return {};
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      mDocument(new ModelDocument(this)),
      mNodeModel(new NodeListModel(mDocument, this)),
      mLoader(new ModelLoader(this)) {
    setAcceptDrops(true);
    mGraphView = new GraphView(this);
    mGraphView->setDocument(mDocument);
    setCentralWidget(mGraphView);

    mNodeTable = new QTableView(this);
    mNodeTable->setModel(mNodeModel);
    setUpNodeListView(mNodeTable);
    connect(mNodeTable, &QTableView::activated, this, &MainWindow::selectTableNode);
    connect(mNodeTable, &QTableView::clicked, this, &MainWindow::selectTableNode);

    mStatusLabel = new QLabel(tr("Drop an ONNX model here, or use File > Open."), this);
    mBusyBar = new QProgressBar(this);
    mBusyBar->setRange(0, 0);
    mBusyBar->setMaximumWidth(160);
    mBusyBar->hide();
    statusBar()->addWidget(mStatusLabel, 1);
    statusBar()->addPermanentWidget(mBusyBar);

    createActions();
    createDocks();
    createPrecisionDocks();
    createCalibrationActions();
    createTrtTargetActions();
    createPlotDocks();
    createProjectActions();
    createEngineActions();
    createLogDock();
    arrangeDocks(*this);
    addPanelsMenu();
    addHelpMenu(this,
                {{tr("Graph"), mGraphView->keyActions()}, {tr("Precision table"), mPrecisionPanel->tableActions()}});
    restoreWindowState();
    connect(mLoader, &ModelLoader::loaded, this, &MainWindow::loadFinished);
    connect(mLoader, &ModelLoader::previewReady, mGraphView, &GraphView::showPreview);
    connect(mLoader, &ModelLoader::previewReady, this, [this] {
        mStatusLabel->setText(mStatusLabel->text() +
                              tr(" its structure is shown; shapes, precisions and findings follow"));
    });
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::updateTitle);
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::showDiagnostics);
    connect(mDocument, &ModelDocument::lintChanged, this, &MainWindow::showLintFindings);
    connect(mDocument, &ModelDocument::silencedRulesChanged, this, &MainWindow::showLintFindings);
    connect(mDocument, &ModelDocument::planChanged, this, &MainWindow::showPrecisions);
    connect(mDocument, &ModelDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &ModelDocument::projectPathChanged, this, &MainWindow::updateTitle);
    connect(mGraphView, &GraphView::layoutApplied, this, &MainWindow::showPrecisions);
    connect(mGraphView, &GraphView::precisionCycleRequested, mDocument,
            [this](const QList<NodeId>& nodes) { mDocument->cyclePrecision(nodes); });
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("FileMenu"));
    QAction* open = file->addAction(tr("&Open Model..."), this, &MainWindow::chooseAndOpenModel);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    undo->setProperty(kShortcutNameProperty, tr("Undo"));  // in Help > Keyboard Shortcuts, whatever it undoes
    redo->setProperty(kShortcutNameProperty, tr("Redo"));
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("ViewMenu"));
    QAction* fit = view->addAction(tr("&Fit to Window"), mGraphView, &GraphView::fitToWindow);
    fit->setShortcut(Qt::CTRL | Qt::Key_0);
    QAction* zoomIn = view->addAction(tr("Zoom &In"), mGraphView, &GraphView::zoomIn);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), mGraphView, &GraphView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction* showQdq = view->addAction(tr("Show &Q/DQ Nodes"));
    showQdq->setCheckable(true);
    connect(showQdq, &QAction::toggled, mGraphView, &GraphView::setShowQdq);
    mSearchBar = new GraphSearchBar(mGraphView, this);
    addGraphViewActions(view, mGraphView, mSearchBar);
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* themeGroup = new QActionGroup(themes);
    const QString current = QSettings().value(QStringLiteral("theme"), QStringLiteral("light")).toString();
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        QAction* action = themes->addAction(theme == Theme::Light ? tr("&Light") : tr("&Dark"), this, [theme] {
            applyTheme(theme);
            QSettings().setValue(QStringLiteral("theme"), themeName(theme));
        });
        action->setCheckable(true);
        action->setChecked(themeName(theme) == current);
        themeGroup->addAction(action);
    }

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->addAction(open);
    toolbar->addAction(fit);
    toolbar->addWidget(mSearchBar);
    QAction* find = view->addAction(tr("&Find..."), mSearchBar, &GraphSearchBar::activate);
    find->setShortcut(QKeySequence::Find);
}

void MainWindow::createDocks() {
    auto* lintDock = new QDockWidget(tr("TensorRT Findings"), this);
    lintDock->setObjectName(QStringLiteral("LintDock"));
    mFindings = new FindingsPanel(mDocument, lintDock);
    connect(mFindings, &FindingsPanel::nodeSelected, mGraphView, &GraphView::selectNode);
    connect(mFindings, &FindingsPanel::tensorSelected, this, &MainWindow::showTensorHistogram);
    connect(mFindings->floatImportOffer(), &FloatImportOffer::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    lintDock->setWidget(mFindings);
    addDockWidget(Qt::RightDockWidgetArea, lintDock);

    auto* nodesDock = new QDockWidget(tr("Nodes"), this);
    nodesDock->setObjectName(QStringLiteral("NodesDock"));
    nodesDock->setWidget(mNodeTable);
    addDockWidget(Qt::BottomDockWidgetArea, nodesDock);

    auto* dock = new QDockWidget(tr("Diagnostics"), this);
    dock->setObjectName(QStringLiteral("DiagnosticsDock"));
    mDiagnosticsList = new QListWidget(dock);
    mDiagnosticsList->setWordWrap(true);
    dock->setWidget(mDiagnosticsList);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(nodesDock, dock);
    nodesDock->raise();
    resizeDocks({lintDock}, {420}, Qt::Horizontal);
    resizeDocks({nodesDock}, {220}, Qt::Vertical);
}

// The precision table (tabbed with the node list) and the node properties (under the findings), kept in sync
// with the graph selection; the graph's precision shortcuts and menu entries edit the document.
void MainWindow::createPrecisionDocks() {
    auto* precisionDock = new QDockWidget(tr("Precision"), this);
    precisionDock->setObjectName(QStringLiteral("PrecisionDock"));
    mPrecisionPanel = new PrecisionPanel(mDocument, precisionDock);
    precisionDock->setWidget(mPrecisionPanel);
    addDockWidget(Qt::BottomDockWidgetArea, precisionDock);
    if (auto* nodesDock = findChild<QDockWidget*>(QStringLiteral("NodesDock")))
        tabifyDockWidget(nodesDock, precisionDock);
    precisionDock->raise();

    auto* propertiesDock = new QDockWidget(tr("Node Properties"), this);
    propertiesDock->setObjectName(QStringLiteral("NodePropertiesDock"));
    mPropertiesPanel = new NodePropertiesPanel(mDocument, propertiesDock);
    propertiesDock->setWidget(mPropertiesPanel);
    addDockWidget(Qt::RightDockWidgetArea, propertiesDock);  // arrangeDocks() places it under the findings

    connect(mPrecisionPanel, &PrecisionPanel::nodeSelected, mGraphView, &GraphView::selectNode);
    connect(mPrecisionPanel, &PrecisionPanel::nodeSelected, mPropertiesPanel, &NodePropertiesPanel::showNode);
    connect(mGraphView, &GraphView::nodeSelected, mPrecisionPanel, &PrecisionPanel::selectNode);
    connect(mGraphView, &GraphView::nodeSelected, mPropertiesPanel, &NodePropertiesPanel::showNode);
    connect(mGraphView, &GraphView::subgraphNodeSelected, mPropertiesPanel,
            [this](std::shared_ptr<const SubgraphModel> body, NodeId node, const QString&, const BodyPath& path) {
                mPropertiesPanel->showBodyNode(std::move(body), node, path);
                mPrecisionPanel->selectBodyNode({path, node});
            });
    // A body row: the graph shows its control-flow node (nodeSelected), the properties the layer itself.
    connect(mPrecisionPanel, &PrecisionPanel::bodyNodeSelected, mPropertiesPanel, [this](const BodyNodeRef& ref) {
        const auto bodies = mDocument->sharedBodyGraphs();
        const BodyGraph* body = bodies ? findBodyGraph(*bodies, ref.path) : nullptr;
        if (body)
            mPropertiesPanel->showBodyNode(std::shared_ptr<const SubgraphModel>(bodies, &body->body), ref.node,
                                           ref.path);
    });
    connect(mGraphView, &GraphView::subgraphOpenFailed, this, [this](const QString& message) {
        log(tr("Cannot open the subgraph: %1").arg(message));
        statusBar()->showMessage(tr("Cannot open the subgraph (see the log)"), 5000);
    });
    connect(mGraphView, &GraphView::precisionSetRequested, mDocument,
            [this](const QList<NodeId>& nodes, Precision precision) {
                mDocument->setRequestedPrecision(nodes, precision);
            });
}

// Quantize > Calibrate... (also on the toolbar), the running calibration's strip in the status bar, and the
// outcome as a status message; Quantize > Tune....
void MainWindow::createCalibrationActions() {
    mCalibration = new CalibrationController(mDocument, this);
    mTune = new TuneController(mDocument, this);
    QMenu* quantize = menuBar()->addMenu(tr("&Quantize"));
    quantize->setObjectName(QStringLiteral("QuantizeMenu"));
    quantize->addAction(mCalibration->calibrateAction());
    quantize->addAction(mCalibration->measureAction());
    quantize->addAction(mTune->tuneAction());
    connect(mTune, &TuneController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    if (auto* toolbar = findChild<QToolBar*>(QStringLiteral("MainToolBar")))
        toolbar->addAction(mCalibration->calibrateAction());
    statusBar()->addPermanentWidget(mCalibration->statusWidget());
    connect(mCalibration, &CalibrationController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

// Quantize > TensorRT Target and, rightmost in the status bar, the target the window follows.
void MainWindow::createTrtTargetActions() {
    mTrtTarget = new TrtTargetController(mDocument, this);
    if (auto* quantize = menuBar()->findChild<QMenu*>(QStringLiteral("QuantizeMenu"))) {
        quantize->addSeparator();
        quantize->addMenu(mTrtTarget->menu());
    }
    statusBar()->addPermanentWidget(mTrtTarget->statusLabel());
    connect(mTrtTarget, &TrtTargetController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
}

// Histogram of the selected tensor, per-layer error and output scatter along the bottom, right of the tables;
// brought to the front when new results arrive.
void MainWindow::createPlotDocks() {
    auto makeDock = [this](QWidget* plot, const QString& title, const QString& name) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(plot);
        addDockWidget(Qt::BottomDockWidgetArea, dock, Qt::Horizontal);
        return dock;
    };
    mHistogramPlot = new HistogramPlot(this);
    mLayerErrorPlot = new LayerErrorPlot(this);
    mOutputScatterPlot = new OutputScatterPlot(this);
    QDockWidget* histogram = makeDock(mHistogramPlot, tr("Histogram"), QStringLiteral("HistogramDock"));
    QDockWidget* layers = makeDock(mLayerErrorPlot, tr("Layer Error"), QStringLiteral("LayerErrorDock"));
    QDockWidget* scatter = makeDock(mOutputScatterPlot, tr("Output Scatter"), QStringLiteral("OutputScatterDock"));
    // addDockWidget(Horizontal) put the histogram right of the tabbed tables (splitting a tabbed dock would
    // only add a tab); the error plots go right of it, the scatter tabbed with the per-layer error.
    splitDockWidget(histogram, layers, Qt::Horizontal);
    tabifyDockWidget(layers, scatter);
    layers->raise();
    resizeDocks({histogram}, {280}, Qt::Vertical);
    mHistogramPlot->setDocument(mDocument);
    mLayerErrorPlot->setDocument(mDocument);
    mOutputScatterPlot->setDocument(mDocument);
    connect(mGraphView, &GraphView::nodeSelected, mHistogramPlot, &HistogramPlot::showNode);
    connect(mLayerErrorPlot, &LayerErrorPlot::nodeClicked, mGraphView, &GraphView::selectNode);
    for (PlotWidget* plot : {static_cast<PlotWidget*>(mLayerErrorPlot), static_cast<PlotWidget*>(mOutputScatterPlot)})
        connect(plot, &PlotWidget::remeasureRequested, mCalibration, &CalibrationController::measureAgain);
    connect(mDocument, &ModelDocument::calibrationChanged, histogram, [this, histogram] {
        if (!mDocument->calibration()) return;
        histogram->show();
        histogram->raise();
    });
    connect(mDocument, &ModelDocument::analysisChanged, layers, [this, layers] {
        if (!mDocument->analysis(AnalysisMode::Accumulated)) return;
        layers->show();
        layers->raise();
    });
}

// File > Open Project, Save, Save As, Open Recent, Export; the unsaved-changes prompt.
void MainWindow::createProjectActions() {
    mProject = new ProjectController(this, mDocument);
    QMenu* file = menuBar()->findChild<QMenu*>(QStringLiteral("FileMenu"));
    mProject->addFileActions(file);
    if (auto* toolbar = findChild<QToolBar*>(QStringLiteral("MainToolBar"))) {
        toolbar->insertAction(toolbar->actions().value(1), mProject->saveAction());
        toolbar->addAction(mProject->exportAction());
    }
    connect(mProject, &ProjectController::openRequested, this, [this](const QString& path) { openModel(path); });
    connect(mProject, &ProjectController::modelLocated, this, &MainWindow::openModel);
    connect(mProject, &ProjectController::message, this, &MainWindow::log);
    // File > Import (calibration, plan; the engine report joins it) and File > Export Plan beside the export.
    mImport = new ImportController(mDocument, this);
    file->insertMenu(file->actions().value(1), mImport->importMenu());
    file->insertAction(mProject->exportAction(), mImport->exportPlanAction());
    connect(mImport, &ImportController::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(this, &MainWindow::modelOpened, mProject, &ProjectController::addRecentFile);
    // File > Fix Inputs and Fold... (Silero VAD's sr): the folded model opens in its place.
    auto* fold = new FoldInputsController(mDocument, this);
    file->insertAction(mProject->exportAction(), fold->action());
    connect(fold, &FoldInputsController::folded, this, [this](const QString& path) { openModel(path); });
    connect(fold, &FoldInputsController::message, this, &MainWindow::log);
}

// File > Import Engine Report..., View > Color Nodes By, the "TensorRT Engine" dock (tabbed with the findings;
// a click selects the node), the import's strip in the status bar and the plan's predicted latency beside it.
void MainWindow::createEngineActions() {
    mEngine = new EngineController(mDocument, mGraphView, this);
    mImport->importMenu()->addAction(mEngine->importAction());
    auto* gpuFit = new GpuFitController(mDocument, this);
    mImport->importMenu()->addAction(gpuFit->action());
    connect(gpuFit, &GpuFitController::message, this, [this](const QString& text) {
        log(text);
        statusBar()->showMessage(text, 15000);
    });
    auto* abImport = new AbImportController(mDocument, this);
    mImport->importMenu()->addAction(abImport->action());
    connect(abImport, &AbImportController::message, gpuFit, &GpuFitController::message);  // the log, the status bar
    if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"))) view->addMenu(mEngine->coloringMenu());
    statusBar()->addPermanentWidget(mEngine->statusWidget());
    statusBar()->addPermanentWidget((new LatencyPredictionController(mDocument, this))->statusLabel());
    auto* dock = new QDockWidget(tr("TensorRT Engine"), this);
    dock->setObjectName(QStringLiteral("EngineDock"));
    mEnginePanel = new EnginePanel(mDocument, dock);
    dock->setWidget(mEnginePanel);
    addDockWidget(Qt::RightDockWidgetArea, dock);  // arrangeDocks() tabs it with the findings
    connect(mEnginePanel, &EnginePanel::nodeSelected, mGraphView, &GraphView::selectNode);
    connect(mEngine, &EngineController::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(mEngine, &EngineController::importFinished, dock, [dock](bool ok) {
        if (!ok) return;
        dock->show();
        dock->raise();
    });
}

void MainWindow::createLogDock() {
    auto* dock = new QDockWidget(tr("Log"), this);
    dock->setObjectName(QStringLiteral("LogDock"));
    mLog = new QPlainTextEdit(dock);
    mLog->setReadOnly(true);
    mLog->setMaximumBlockCount(5000);
    dock->setWidget(mLog);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (auto* diagnostics = findChild<QDockWidget*>(QStringLiteral("DiagnosticsDock")))
        tabifyDockWidget(diagnostics, dock);
    connect(this, &MainWindow::modelOpened, this, [this](const QString& path) { log(tr("Opened %1").arg(path)); });
    connect(this, &MainWindow::modelFailedToOpen, this,
            [this](const QString& path, const QString& error) { log(tr("Could not open %1: %2").arg(path, error)); });
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& text) {
        if (!text.isEmpty()) log(text);
    });
}

void MainWindow::log(const QString& text) {
    mLog->appendPlainText(
        QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
}

// View > Panels: every dock can be brought back after it was closed.
void MainWindow::addPanelsMenu() {
    QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) panels->addAction(dock->toggleViewAction());
}

// Window geometry and dock layout as the user left them (the first run keeps the default arrangement).
void MainWindow::restoreWindowState() {
    resize(1280, 800);
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) sizeDocksWhenShown(*this);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!mProject->maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

void MainWindow::chooseAndOpenModel() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open ONNX Model or Project"), dialogFolder(mDocument),
                                     tr("ONNX models and QuantLens projects (*.onnx *.qlproj);;All files (*)"));
    if (path.isEmpty()) return;
    rememberDialogFolder(path);
    openModel(path);
}

bool MainWindow::isLoading() const {
    return mLoader->isLoading();
}

void MainWindow::openModel(const QString& path, const QString& modelPath) {
    if (!mProject->maybeSave()) return;
    mStatusLabel->setText(tr("Loading %1...").arg(QFileInfo(path).fileName()));
    mBusyBar->show();
    mLoader->load(path, mDocument->trtTarget(), modelPath);  // a bare model keeps the target the user chose
}

void MainWindow::loadFinished(const std::shared_ptr<LoadedModel>& outcome) {
    mBusyBar->hide();
    if (!outcome->model) {
        mGraphView->endPreview();  // the graph shown is the open model's again
        mStatusLabel->setText(tr("Could not open %1").arg(QFileInfo(outcome->path).fileName()));
        emit modelFailedToOpen(outcome->path, outcome->error);
        if (!outcome->missingModel.isEmpty()) {
            mProject->locateMissingModel(outcome->path, outcome->error);  // offers Locate...
            return;
        }
        showMessage(this, QMessageBox::Warning, tr("Cannot open model"), outcome->error);
        return;
    }
    mDocument->replaceModel(std::move(*outcome));  // the paths and errors used below are not taken
    releaseFreedMemory();                          // the previous model's memory
    fitNodeListColumns(mNodeTable);
    if (!outcome->engineError.isEmpty()) log(tr("Engine report not restored: %1").arg(outcome->engineError));
    emit modelOpened(outcome->projectPath.isEmpty() ? outcome->path : outcome->projectPath);
}

void MainWindow::showDiagnostics() {
    mDiagnosticsList->clear();
    const Model* model = mDocument->model();
    if (!model) return;
    for (const Diagnostic& d : model->diagnostics())
        mDiagnosticsList->addItem(QStringLiteral("[%1] %2: %3")
                                      .arg(QString::fromUtf8(severityName(d.severity)),
                                           QString::fromStdString(d.source), QString::fromStdString(d.message)));
    if (model->diagnostics().empty())
        mDiagnosticsList->addItem(tr("The ONNX checker and shape inference found no problems."));
}

// Badges on the graph (silenced rules left out) and the coverage line; the findings dock lists them.
void MainWindow::showLintFindings() {
    if (mDocument->isReplacingModel()) return;  // once, on the replacement's last signal
    mGraphView->clearNodeBadges();
    if (!mDocument->model()) return;
    const LintReport& report = mDocument->lint();
    const QStringList silenced = mDocument->silencedRules();
    const Graph& graph = mDocument->model()->graph();
    // Findings come most severe first: a node's badge shows its first one. Those inside a subgraph body (named by
    // their path, "If_3/then_branch/Conv_1") are on its control-flow node, and on their own node when it is open.
    std::vector<GraphScene::NodeBadge> badges;
    for (const Finding& f : report.findings) {
        if (f.node == kNoId || silenced.contains(QString::fromStdString(f.ruleId))) continue;
        const QString message = QString::fromStdString(f.message);
        badges.push_back({f.node, f.severity, message});
        if (f.nodeName != graph.node(f.node).name) mGraphView->setSubgraphBadge(f.nodeName, f.severity, message);
    }
    mGraphView->setNodeBadges(badges);
    const LintCoverage& c = report.coverage;
    mCoverageText = tr("%1 of %2 weighted layers run INT8 on TensorRT %3, %4 fall back")
                        .arg(c.int8Layers)
                        .arg(c.weightedLayers)
                        .arg(QString::fromUtf8(trtVersionName(mDocument->trtVersion())))
                        .arg(c.fallbacks.size());
    mStatusLabel->setText(tr("%1: %2 nodes, %3 initializers. %4")
                              .arg(mDocument->fileName())
                              .arg(graph.nodes().size())
                              .arg(graph.initializers().size())
                              .arg(mCoverageText));
}

void MainWindow::showPrecisions() {
    const Model* model = mDocument->model();
    if (!model) return;
    std::vector<Precision> precisions;
    precisions.reserve(model->graph().nodes().size());
    const PrecisionPlan& plan = mDocument->shownPlan();  // an edit's effective precisions come with the next call
    for (const Node& node : model->graph().nodes()) precisions.push_back(plan.effective(node.id));
    mGraphView->setNodePrecisions(precisions);
    if (mDocument->isRelintPending())
        statusBar()->showMessage(relintMessage());
    else if (statusBar()->currentMessage() == relintMessage())
        statusBar()->clearMessage();
}

void MainWindow::showTensorHistogram(const QString& tensor) {
    mHistogramPlot->showTensor(tensor);
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("HistogramDock"))) dock->raise();
}

void MainWindow::selectTableNode(const QModelIndex& index) {
    mGraphView->selectNode(index.data(NodeListModel::NodeIdRole).toInt());
}

// "digits.qlproj - digits_cnn.onnx - QuantLens" with a project, "digits_cnn.onnx - QuantLens" without; "[*]" shows
// the platform's unsaved-changes marker after what Save writes.
void MainWindow::updateTitle() {
    if (!mDocument->model())
        setWindowTitle(tr("QuantLens"));
    else if (mDocument->projectPath().isEmpty())
        setWindowTitle(tr("%1[*] - QuantLens").arg(mDocument->fileName()));
    else
        setWindowTitle(
            tr("%1[*] - %2 - QuantLens").arg(QFileInfo(mDocument->projectPath()).fileName(), mDocument->fileName()));
    setWindowModified(mDocument->isModified());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!onnxPathFromMime(event->mimeData()).isEmpty() || !dataPathFromMime(event->mimeData()).isEmpty() ||
        (mDocument->model() && !jsonPathsFromMime(event->mimeData()).isEmpty()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = onnxPathFromMime(event->mimeData());
    if (const QStringList engineFiles = jsonPathsFromMime(event->mimeData());
        path.isEmpty() && !engineFiles.isEmpty()) {
        // trtexec's layer information and profile: what TensorRT built from the open model.
        if (mEngine->importFiles(engineFiles)) event->acceptProposedAction();
        return;
    }
    if (path.isEmpty()) {
        // A .npy/.npz file or a folder: calibration data for the open model.
        const QString data = dataPathFromMime(event->mimeData());
        if (!data.isEmpty() && mCalibration->openDialog(data)) event->acceptProposedAction();
        return;
    }
    event->acceptProposedAction();
    openModel(path);
}

}  // namespace ql::ui
