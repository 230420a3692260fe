#pragma once
// File handling of the window: open/save projects (.qlproj), recent files, the unsaved-changes prompt,
// and exporting the TensorRT-ready model. The window owns one; it adds its actions to the File menu.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <functional>
#include <vector>

#include "core/quant/input_shapes.h"

class QAction;
class QMenu;
class QWidget;

namespace ql::ui {

class ModelDocument;

class ProjectController : public QObject {
    Q_OBJECT
public:
    enum class UnsavedChoice { Save, Discard, Cancel };
    using UnsavedPrompt = std::function<UnsavedChoice()>;
    // Asked where a project's model went: the model's new path, or empty (cancelled). `message` says what is
    // missing.
    using LocatePrompt = std::function<QString(const QString& projectPath, const QString& message)>;

    ProjectController(QWidget* window, ModelDocument* document);

    // Adds Open Project, Save, Save As, Recent Files and Export to `file` (before its last action, Quit).
    void addFileActions(QMenu* file);
    QAction* saveAction() const { return mSave; }
    QAction* exportAction() const { return mExport; }

    // True when the document may be replaced or closed: it has no unsaved changes, or the user saved or
    // discarded them. Asks through the prompt (a message box unless replaced, e.g. by tests).
    bool maybeSave();
    void setUnsavedPrompt(UnsavedPrompt prompt) { mPrompt = std::move(prompt); }

    // A project's model was not found: offers Locate... (a file dialog in the project's folder unless replaced) and
    // emits modelLocated() with the file chosen.
    void locateMissingModel(const QString& projectPath, const QString& message);
    void setLocatePrompt(LocatePrompt prompt) { mLocatePrompt = std::move(prompt); }

    bool saveProjectAs(const QString& path);
    // Exports in the background to `path` for the document's TensorRT target, with .summary.json, .trtexec.sh and
    // (except for TensorRT 11, which has no calibrators) .calib.cache beside it; needs a calibration.
    // `shapes`: the export dialog's optimization profiles (ExportShapesDialog); none: the calibration's.
    void exportTo(const QString& path, const std::vector<InputShapeRange>& shapes = {});
    void addRecentFile(const QString& path);
    QStringList recentFiles() const;

signals:
    void openRequested(const QString& path);
    // Open `projectPath` with `modelPath` as its model (the user located it).
    void modelLocated(const QString& projectPath, const QString& modelPath);
    void message(const QString& text);  // for the log and the status bar
    void exported(bool ok);

private:
    bool save();
    bool chooseAndSave();
    void chooseAndOpenProject();
    void rebuildRecentMenu();
    void chooseAndExport();
    void updateExportTip();
    void exportFinished();

    QWidget* mWindow;
    ModelDocument* mDocument;
    UnsavedPrompt mPrompt;
    LocatePrompt mLocatePrompt;
    QAction* mSave = nullptr;
    QAction* mExport = nullptr;
    QMenu* mRecentMenu = nullptr;
    QFutureWatcher<QString> mExportWatcher;  // the export's summary, or its error
};

}  // namespace ql::ui
