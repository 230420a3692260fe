#pragma once
// File > Import (calibration in every format `quantlens-cli quantize --calib` reads: CALIB.json, a TensorRT
// calibration cache, ONNX Runtime's calibration table or cache, a Q/DQ model's scales, a project's calibration; a
// precision plan JSON) and File > Export Plan (the plan as `quantlens-cli ... --plan` reads it). Reading scales runs
// in the background (a Q/DQ model can be large); a plan is a small JSON file read at once.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>

#include "core/export/scale_import.h"

class QAction;
class QMenu;
class QWidget;

namespace ql {
class Model;
}

namespace ql::ui {

class ModelDocument;

class ImportController : public QObject {
    Q_OBJECT
public:
    ImportController(ModelDocument* document, QWidget* window);
    ~ImportController() override;  // waits for a running import

    // File > Import: Calibration..., Precision Plan... (more actions may be added by the window).
    QMenu* importMenu() const { return mImportMenu; }
    QAction* exportPlanAction() const { return mExportPlan; }

    // Reads the scales of `path` in the background; importFinished() tells the outcome.
    void importCalibration(const QString& path);
    // Replaces the plan by the one in `path` (one undo step); false with a message when it cannot.
    bool importPlan(const QString& path);
    bool exportPlan(const QString& path);

signals:
    void message(const QString& text);  // for the status bar and the log
    void importFinished(bool ok);

private:
    void calibrationRead();
    void updateActions();
    void fail(const QString& title, const QString& text);

    ModelDocument* mDocument;
    QWidget* mWindow;
    QMenu* mImportMenu;
    QAction* mImportCalibration;
    QAction* mImportPlan;
    QAction* mExportPlan;
    QFutureWatcher<std::shared_ptr<Result<ImportedScales>>> mWatcher;
    std::shared_ptr<const Model> mJobModel;  // the model the running import reads scales for
    QString mJobPath;
};

}  // namespace ql::ui
