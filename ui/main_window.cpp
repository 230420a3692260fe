#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/graph/graph_view.h"
#include "ui/model_document.h"
#include "ui/node_list_model.h"

namespace ql::ui {

QString onnxPathFromMime(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (!path.isEmpty() && path.endsWith(QStringLiteral(".onnx"), Qt::CaseInsensitive)) return path;
    }
    return {};
}

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), mDocument(new ModelDocument(this)), mNodeModel(new NodeListModel(mDocument, this)) {
    setAcceptDrops(true);
    mGraphView = new GraphView(this);
    mGraphView->setDocument(mDocument);
    setCentralWidget(mGraphView);

    mNodeTable = new QTableView(this);
    mNodeTable->setModel(mNodeModel);
    mNodeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mNodeTable->setAlternatingRowColors(true);
    mNodeTable->verticalHeader()->hide();
    mNodeTable->horizontalHeader()->setStretchLastSection(true);
    mNodeTable->setWordWrap(false);
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
    connect(&mLoadWatcher, &QFutureWatcher<std::shared_ptr<LoadedModel>>::finished, this, &MainWindow::loadFinished);
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::updateTitle);
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::showDiagnostics);
    connect(mDocument, &ModelDocument::planChanged, this, &MainWindow::showLintFindings);
    connect(mDocument, &ModelDocument::planChanged, this, &MainWindow::showPrecisions);
    connect(mDocument, &ModelDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(mGraphView, &GraphView::layoutApplied, this, &MainWindow::showPrecisions);
    connect(mGraphView, &GraphView::precisionCycleRequested, mDocument, &ModelDocument::cyclePrecision);
    updateTitle();
    resize(1280, 800);
}

MainWindow::~MainWindow() {
    mLoadWatcher.waitForFinished();
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
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
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit to Window"), mGraphView, &GraphView::fitToWindow);
    fit->setShortcut(Qt::CTRL | Qt::Key_0);
    QAction* zoomIn = view->addAction(tr("Zoom &In"), mGraphView, &GraphView::zoomIn);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), mGraphView, &GraphView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction* showQdq = view->addAction(tr("Show &Q/DQ Nodes"));
    showQdq->setCheckable(true);
    connect(showQdq, &QAction::toggled, mGraphView, &GraphView::setShowQdq);

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->addAction(open);
    toolbar->addAction(fit);
    mSearchEdit = new QLineEdit(toolbar);
    mSearchEdit->setPlaceholderText(tr("Find node or tensor (Ctrl+F)"));
    mSearchEdit->setClearButtonEnabled(true);
    mSearchEdit->setMaximumWidth(320);
    toolbar->addWidget(mSearchEdit);
    connect(mSearchEdit, &QLineEdit::returnPressed, this, &MainWindow::findInGraph);
    QAction* find = view->addAction(tr("&Find..."), mSearchEdit, [this] {
        mSearchEdit->setFocus();
        mSearchEdit->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
}

void MainWindow::createDocks() {
    auto* lintDock = new QDockWidget(tr("TensorRT Findings"), this);
    lintDock->setObjectName(QStringLiteral("LintDock"));
    mLintTree = new QTreeWidget(lintDock);
    mLintTree->setHeaderLabels({tr("Severity"), tr("Finding"), tr("Node")});
    mLintTree->setRootIsDecorated(false);
    mLintTree->setWordWrap(true);
    mLintTree->setAlternatingRowColors(true);
    mLintTree->header()->setStretchLastSection(true);
    connect(mLintTree, &QTreeWidget::itemClicked, this, &MainWindow::selectFindingNode);
    lintDock->setWidget(mLintTree);
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

void MainWindow::chooseAndOpenModel() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open ONNX Model"), QString(), tr("ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) openModel(path);
}

bool MainWindow::isLoading() const {
    return mLoadWatcher.isRunning() || !mPendingPath.isEmpty();
}

void MainWindow::openModel(const QString& path) {
    if (mLoadWatcher.isRunning()) {  // the running load cannot be interrupted; the newest request wins
        mPendingPath = path;
        return;
    }
    mPendingPath.clear();
    mStatusLabel->setText(tr("Loading %1...").arg(QFileInfo(path).fileName()));
    mBusyBar->show();
    mLoadWatcher.setFuture(QtConcurrent::run([path] { return ModelDocument::load(path); }));
}

void MainWindow::loadFinished() {
    if (!mPendingPath.isEmpty()) {
        openModel(mPendingPath);
        return;
    }
    mBusyBar->hide();
    const auto outcome = mLoadWatcher.result();
    if (!outcome->model) {
        mStatusLabel->setText(tr("Could not open %1").arg(QFileInfo(outcome->path).fileName()));
        emit modelFailedToOpen(outcome->path, outcome->error);
        if (!QApplication::platformName().startsWith(QStringLiteral("offscreen")))
            QMessageBox::warning(this, tr("Cannot open model"), outcome->error);
        return;
    }
    mDocument->replaceModel(*outcome);
    mNodeTable->resizeColumnsToContents();
    emit modelOpened(outcome->path);
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

void MainWindow::showLintFindings() {
    mLintTree->clear();
    mGraphView->clearNodeBadges();
    if (!mDocument->model()) return;
    const LintReport& report = mDocument->lint();
    for (const Finding& f : report.findings) {
        auto* item = new QTreeWidgetItem(mLintTree);
        item->setText(0, QString::fromUtf8(severityName(f.severity)));
        item->setText(1, QString::fromStdString(f.message));
        item->setText(2, QString::fromStdString(f.nodeName));
        const QString tip = QString::fromStdString(f.ruleId + ": " + f.message + "\n\nFix: " + f.fix);
        for (int column = 0; column < 3; ++column) item->setToolTip(column, tip);
        item->setData(0, Qt::UserRole, f.node);
        if (f.node != kNoId) mGraphView->setNodeBadge(f.node, f.severity, QString::fromStdString(f.message));
    }
    mLintTree->resizeColumnToContents(0);
    mLintTree->setColumnWidth(1, 300);
    const LintCoverage& c = report.coverage;
    mCoverageText = tr("%1 of %2 weighted layers run INT8 on TensorRT 10, %3 fall back")
                        .arg(c.int8Layers)
                        .arg(c.weightedLayers)
                        .arg(c.fallbacks.size());
    const Graph& graph = mDocument->model()->graph();
    mStatusLabel->setText(tr("%1: %2 nodes, %3 initializers. %4")
                              .arg(mDocument->fileName())
                              .arg(graph.nodes().size())
                              .arg(graph.initializers().size())
                              .arg(mCoverageText));
}

void MainWindow::showPrecisions() {
    const Model* model = mDocument->model();
    if (!model) return;
    for (const Node& node : model->graph().nodes()) mGraphView->setNodePrecision(node.id, mDocument->plan().effective(node.id));
}

void MainWindow::findInGraph() {
    const QString text = mSearchEdit->text().trimmed();
    if (text.isEmpty()) return;
    if (!mGraphView->findAndCenter(text)) statusBar()->showMessage(tr("No node or tensor named '%1'").arg(text), 4000);
}

void MainWindow::selectFindingNode(QTreeWidgetItem* item) {
    const NodeId node = item->data(0, Qt::UserRole).toInt();
    if (node != kNoId) mGraphView->selectNode(node);
}

void MainWindow::selectTableNode(const QModelIndex& index) {
    mGraphView->selectNode(index.data(NodeListModel::NodeIdRole).toInt());
}

void MainWindow::updateTitle() {
    // "[*]" shows the unsaved-changes marker the platform uses.
    setWindowTitle(mDocument->model() ? tr("%1[*] - QuantLens").arg(mDocument->fileName()) : tr("QuantLens"));
    setWindowModified(mDocument->isModified());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!onnxPathFromMime(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = onnxPathFromMime(event->mimeData());
    if (path.isEmpty()) return;
    event->acceptProposedAction();
    openModel(path);
}

}  // namespace ql::ui
