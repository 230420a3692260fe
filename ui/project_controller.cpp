#include "ui/project_controller.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/action_shortcut_keeper.h"
#include "ui/dialog_folder.h"
#include "ui/export_job.h"
#include "ui/export_shapes_dialog.h"
#include "ui/message_box.h"
#include "ui/model_document.h"
#include "ui/project_file.h"
#include "ui/trt_target_controller.h"

namespace ql::ui {
namespace {

constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";

}  // namespace

ProjectController::ProjectController(QWidget* window, ModelDocument* document)
    : QObject(window), mWindow(window), mDocument(document) {
    mPrompt = [this] {
        const auto answer = QMessageBox::warning(
            mWindow, tr("Unsaved changes"),
            tr("%1 has unsaved changes (%2). Save them in a project?")
                .arg(mDocument->fileName(), mDocument->unsavedChanges().join(QStringLiteral(", "))),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        return answer == QMessageBox::Save      ? UnsavedChoice::Save
               : answer == QMessageBox::Discard ? UnsavedChoice::Discard
                                                : UnsavedChoice::Cancel;
    };
    mLocatePrompt = [this](const QString& projectPath, const QString& text) {
        QMessageBox box(QMessageBox::Warning, tr("Model not found"), text, QMessageBox::Cancel, mWindow);
        QPushButton* locate = box.addButton(tr("Locate..."), QMessageBox::AcceptRole);
        box.setDefaultButton(locate);
        box.exec();
        if (box.clickedButton() != locate) return QString();
        return QFileDialog::getOpenFileName(mWindow, tr("Locate the Model"), QFileInfo(projectPath).absolutePath(),
                                            tr("ONNX models (*.onnx);;All files (*)"));
    };
    connect(&mExportWatcher, &QFutureWatcher<QString>::finished, this, &ProjectController::exportFinished);
}

void ProjectController::locateMissingModel(const QString& projectPath, const QString& message) {
    const QString model = mLocatePrompt(projectPath, message);
    if (model.isEmpty()) return;
    emit this->message(tr("Opening %1 with the model at %2").arg(projectPath, model));
    emit modelLocated(projectPath, model);
}

void ProjectController::addFileActions(QMenu* file) {
    QAction* quit = file->actions().isEmpty() ? nullptr : file->actions().back();
    auto* openProject = new QAction(tr("Open &Project..."), this);
    connect(openProject, &QAction::triggered, this, &ProjectController::chooseAndOpenProject);
    mRecentMenu = new QMenu(tr("Open &Recent"), mWindow);
    mSave = new QAction(tr("&Save Project"), this);
    mSave->setShortcut(QKeySequence::Save);
    connect(mSave, &QAction::triggered, this, &ProjectController::save);
    auto* saveAs = new QAction(tr("Save Project &As..."), this);
    saveAs->setShortcut(QKeySequence::SaveAs);
    connect(saveAs, &QAction::triggered, this, &ProjectController::chooseAndSave);
    mExport = new QAction(tr("&Export for TensorRT..."), this);
    mExport->setShortcut(Qt::CTRL | Qt::Key_E);
    connect(mExport, &QAction::triggered, this, &ProjectController::chooseAndExport);
    new ActionShortcutKeeper(mExport);  // Ctrl+E from the search bar too
    for (QAction* action : {openProject, mRecentMenu->menuAction()}) file->insertAction(quit ? quit : nullptr, action);
    file->insertSeparator(quit);
    for (QAction* action : {mSave, saveAs}) file->insertAction(quit, action);
    file->insertSeparator(quit);
    file->insertAction(quit, mExport);
    file->insertSeparator(quit);
    auto updateEnabled = [this] {
        mSave->setEnabled(mDocument->model() != nullptr);
        mExport->setEnabled(mDocument->calibration() != nullptr && !mExportWatcher.isRunning());
    };
    connect(mDocument, &ModelDocument::modelReplaced, this, updateEnabled);
    connect(mDocument, &ModelDocument::calibrationChanged, this, updateEnabled);
    connect(mDocument, &ModelDocument::trtTargetChanged, this, &ProjectController::updateExportTip);
    updateExportTip();
    connect(&mExportWatcher, &QFutureWatcher<QString>::finished, this, updateEnabled);
    updateEnabled();
    rebuildRecentMenu();
}

bool ProjectController::maybeSave() {
    if (!mDocument->isModified()) return true;
    switch (mPrompt()) {
        case UnsavedChoice::Save:
            return save();
        case UnsavedChoice::Discard:
            return true;
        case UnsavedChoice::Cancel:
            return false;
    }
    return false;
}

bool ProjectController::save() {
    if (mDocument->projectPath().isEmpty()) return chooseAndSave();
    return saveProjectAs(mDocument->projectPath());
}

bool ProjectController::chooseAndSave() {
    if (!mDocument->model()) return false;
    const QString suggested = withSuffix(mDocument->filePath(), QStringLiteral(".qlproj"));
    const QString path =
        QFileDialog::getSaveFileName(mWindow, tr("Save Project"), suggested, tr("QuantLens projects (*.qlproj)"));
    return !path.isEmpty() && saveProjectAs(path);
}

bool ProjectController::saveProjectAs(const QString& path) {
    QString target = path;
    if (QFileInfo(target).suffix().isEmpty()) target += QStringLiteral(".qlproj");
    if (Status s = saveProject(*mDocument, target); !s.isOk()) {
        emit message(tr("Could not save %1: %2").arg(target, QString::fromStdString(s.message())));
        showMessage(mWindow, QMessageBox::Warning, tr("Cannot save project"), QString::fromStdString(s.message()));
        return false;
    }
    mDocument->setProjectPath(QFileInfo(target).absoluteFilePath());
    mDocument->markSaved();
    addRecentFile(target);
    emit message(tr("Saved %1").arg(target));
    return true;
}

void ProjectController::chooseAndOpenProject() {
    const QString path = QFileDialog::getOpenFileName(mWindow, tr("Open Project"), dialogFolder(mDocument),
                                                      tr("QuantLens projects (*.qlproj);;All files (*)"));
    if (!path.isEmpty()) emit openRequested(path);
}

QStringList ProjectController::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void ProjectController::addRecentFile(const QString& path) {
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void ProjectController::rebuildRecentMenu() {
    if (!mRecentMenu) return;
    mRecentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* action = mRecentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(path);
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] {
            if (QFileInfo::exists(path)) {
                emit openRequested(path);
                return;
            }
            QStringList remaining = recentFiles();
            remaining.removeAll(path);
            QSettings().setValue(kRecentKey, remaining);
            rebuildRecentMenu();
            emit message(tr("%1 no longer exists; removed from the recent files.").arg(path));
        });
    }
    mRecentMenu->setEnabled(!files.isEmpty());
}

// The files differ per target (a calibration cache only where TensorRT still has calibrators), so the tip says
// which target the export is for.
void ProjectController::updateExportTip() {
    const TrtTarget target = mDocument->trtTarget();
    mExport->setToolTip(
        target.version == TrtVersion::Trt11
            ? tr("Write the Q/DQ model, its decision summary and the trtexec script for %1").arg(trtTargetLabel(target))
            : tr("Write the Q/DQ model, its decision summary, the trtexec script and the calibration cache for %1")
                  .arg(trtTargetLabel(target)));
}

void ProjectController::chooseAndExport() {
    if (!mDocument->model() || !mDocument->calibration() || mExportWatcher.isRunning()) return;
    const QString suggested = withSuffix(mDocument->filePath(), QStringLiteral(".qdq.onnx"));
    // The title names the target: the files are for that TensorRT only (typing, flags, cache or not).
    const QString path =
        QFileDialog::getSaveFileName(mWindow, tr("Export for %1").arg(trtTargetLabel(mDocument->trtTarget())),
                                     suggested, tr("ONNX models (*.onnx)"));
    if (path.isEmpty()) return;
    // A model with dynamic inputs: their TensorRT shapes, prefilled with the calibration's.
    const Graph& graph = mDocument->model()->graph();
    auto dynamic = trtexecShapes(graph, mDocument->calibration()->inputShapes, {});
    std::vector<InputShapeRange> shapes;
    if (dynamic && !dynamic->inputs.empty()) {
        ExportShapesDialog dialog(graph, *dynamic, mWindow);
        if (dialog.exec() != QDialog::Accepted) return;
        if (auto given = dialog.shapes()) shapes = std::move(*given);  // accept() checked them
    }
    exportTo(path, shapes);
}

void ProjectController::exportTo(const QString& path, const std::vector<InputShapeRange>& shapes) {
    ExportJob job{.model = mDocument->sharedModel(),
                  .plan = mDocument->plan(),  // with the tune's reasons, for the summary
                  .calibration = mDocument->calibration(),
                  .target = mDocument->trtTarget(),
                  .modelPath = path,
                  .shapes = shapes};
    emit message(tr("Exporting %1 for %2...").arg(path, trtTargetLabel(job.target)));
    mExportWatcher.setFuture(QtConcurrent::run([job] { return runExport(job); }));
    mExport->setEnabled(false);
}

void ProjectController::exportFinished() {
    const QString result = mExportWatcher.result();
    emit message(result);
    emit exported(!result.startsWith(QStringLiteral("error: ")));
    if (result.startsWith(QStringLiteral("error: ")))
        showMessage(mWindow, QMessageBox::Warning, tr("Export failed"), result.mid(7));
    else
        showMessage(mWindow, QMessageBox::Information, tr("Export finished"), result);
}

}  // namespace ql::ui
