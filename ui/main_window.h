#pragma once
// The main window: opens a model (argument, File > Open, or drop), loads it off the GUI thread and lists
// its nodes, with the loader's diagnostics in a dock.
#include <QMainWindow>
#include <memory>

class QTableView;
class QListWidget;
class QTreeWidget;
class QTreeWidgetItem;
class QLabel;
class QProgressBar;
class QMimeData;
class QPlainTextEdit;

namespace ql::ui {

class GraphSearchBar;
class GraphView;
class ModelDocument;
class NodeListModel;
class NodePropertiesPanel;
class PrecisionPanel;
class FindingsPanel;
class CalibrationController;
class TuneController;
class HistogramPlot;
class LayerErrorPlot;
class OutputScatterPlot;
class ProjectController;
class ImportController;
class TrtTargetController;
class EngineController;
class EnginePanel;
class ModelLoader;
struct LoadedModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ModelDocument* document() const { return mDocument; }
    // Starts loading in the background; a newer request supersedes an older one. `modelPath`: for a project,
    // the model to use instead of the one it names (it moved).
    void openModel(const QString& path, const QString& modelPath = {});
    bool isLoading() const;
    ProjectController* project() const { return mProject; }
    ImportController* importer() const { return mImport; }
    TrtTargetController* trtTarget() const { return mTrtTarget; }
    EngineController* engine() const { return mEngine; }
    // Appends a time-stamped line to the Log dock.
    void log(const QString& text);

signals:
    void modelOpened(const QString& path);
    void modelFailedToOpen(const QString& path, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void createPrecisionDocks();
    void createCalibrationActions();
    void createTrtTargetActions();
    void createPlotDocks();
    void createProjectActions();
    void createEngineActions();
    void createLogDock();
    void addPanelsMenu();
    void restoreWindowState();
    void chooseAndOpenModel();
    void loadFinished(const std::shared_ptr<LoadedModel>& outcome);
    void showDiagnostics();
    void showLintFindings();
    void showPrecisions();
    void showTensorHistogram(const QString& tensor);
    void selectTableNode(const QModelIndex& index);
    void updateTitle();

    ModelDocument* mDocument;
    NodeListModel* mNodeModel;
    QTableView* mNodeTable;
    QListWidget* mDiagnosticsList;
    GraphView* mGraphView;
    FindingsPanel* mFindings;
    PrecisionPanel* mPrecisionPanel = nullptr;
    NodePropertiesPanel* mPropertiesPanel = nullptr;
    CalibrationController* mCalibration = nullptr;
    TuneController* mTune = nullptr;
    HistogramPlot* mHistogramPlot = nullptr;
    LayerErrorPlot* mLayerErrorPlot = nullptr;
    OutputScatterPlot* mOutputScatterPlot = nullptr;
    ProjectController* mProject = nullptr;
    ImportController* mImport = nullptr;
    TrtTargetController* mTrtTarget = nullptr;
    EngineController* mEngine = nullptr;
    EnginePanel* mEnginePanel = nullptr;
    QPlainTextEdit* mLog = nullptr;
    GraphSearchBar* mSearchBar;
    QLabel* mStatusLabel;
    QProgressBar* mBusyBar;
    ModelLoader* mLoader;
    QString mCoverageText;
};

// The path of a .onnx (or .qlproj) file among dropped URLs, or empty. Dropped .json files are engine reports.
QString onnxPathFromMime(const QMimeData* mime);

}  // namespace ql::ui
