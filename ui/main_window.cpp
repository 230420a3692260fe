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
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/model_document.h"
#include "ui/node_list_model.h"

namespace ql::ui {

struct LoadOutcome {
    QString path;
    std::shared_ptr<Model> model;
    QString error;
};

namespace {
std::shared_ptr<LoadOutcome> loadModelFile(const QString& path) {
    auto outcome = std::make_shared<LoadOutcome>();
    outcome->path = path;
    auto model = Model::load(path.toStdString());
    if (model)
        outcome->model = std::shared_ptr<Model>(std::move(model).value());
    else
        outcome->error = QString::fromStdString(model.status().message());
    return outcome;
}
}  // namespace

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
    mNodeTable = new QTableView(this);
    mNodeTable->setModel(mNodeModel);
    mNodeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mNodeTable->setAlternatingRowColors(true);
    mNodeTable->verticalHeader()->hide();
    mNodeTable->horizontalHeader()->setStretchLastSection(true);
    mNodeTable->setWordWrap(false);
    setCentralWidget(mNodeTable);

    mStatusLabel = new QLabel(tr("Drop an ONNX model here, or use File > Open."), this);
    mBusyBar = new QProgressBar(this);
    mBusyBar->setRange(0, 0);
    mBusyBar->setMaximumWidth(160);
    mBusyBar->hide();
    statusBar()->addWidget(mStatusLabel, 1);
    statusBar()->addPermanentWidget(mBusyBar);

    createActions();
    createDocks();
    connect(&mLoadWatcher, &QFutureWatcher<std::shared_ptr<LoadOutcome>>::finished, this, &MainWindow::loadFinished);
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::updateTitle);
    connect(mDocument, &ModelDocument::modelReplaced, this, &MainWindow::showDiagnostics);
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
}

void MainWindow::createDocks() {
    auto* dock = new QDockWidget(tr("Diagnostics"), this);
    dock->setObjectName(QStringLiteral("DiagnosticsDock"));
    mDiagnosticsList = new QListWidget(dock);
    mDiagnosticsList->setWordWrap(true);
    dock->setWidget(mDiagnosticsList);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
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
    mLoadWatcher.setFuture(QtConcurrent::run(loadModelFile, path));
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
    mDocument->replaceModel(outcome->model);
    const Graph& graph = outcome->model->graph();
    mStatusLabel->setText(tr("%1: %2 nodes, %3 initializers")
                              .arg(mDocument->fileName())
                              .arg(graph.nodes().size())
                              .arg(graph.initializers().size()));
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

void MainWindow::updateTitle() {
    setWindowTitle(mDocument->model() ? tr("%1 - QuantLens").arg(mDocument->fileName()) : tr("QuantLens"));
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
