#include "ui/import_controller.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QtConcurrent/QtConcurrentRun>
#include <fstream>
#include <sstream>

#include "core/common/atomic_file.h"
#include "core/common/json_util.h"
#include "ui/dialog_folder.h"
#include "ui/message_box.h"
#include "ui/model_document.h"
#include "ui/plural.h"

namespace ql::ui {

namespace {

Result<nlohmann::json> readJson(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    if (!in) return notFound(path.toStdString() + ": cannot open the file");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return invalidArgument(path.toStdString() + ": not JSON; is this a precision plan?");
    return json;
}

QString outcomeText(const QString& path, const ImportedScales& imported) {
    QString text = QObject::tr("Imported %1 (%2): %3")
                       .arg(QFileInfo(path).fileName(), QString::fromUtf8(scaleFormatName(imported.format)),
                            counted(static_cast<qint64>(imported.calibration.activations.size()),
                                    QObject::tr("1 activation range"), QObject::tr("%1 activation ranges")));
    if (!imported.unknownTensors.empty())
        text += QObject::tr("; %1 not in the model skipped (first: '%2')")
                    .arg(counted(static_cast<qint64>(imported.unknownTensors.size()), QObject::tr("1 tensor"),
                                 QObject::tr("%1 tensors")),
                         QString::fromStdString(imported.unknownTensors.front()));
    return text;
}

}  // namespace

ImportController::ImportController(ModelDocument* document, QWidget* window)
    : QObject(window), mDocument(document), mWindow(window) {
    mImportMenu = new QMenu(tr("&Import"), window);
    mImportCalibration = mImportMenu->addAction(tr("&Calibration..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            mWindow, tr("Import Calibration"), dialogFolder(mDocument),
            tr("Calibrations (*.json *.cache *.calib *.txt *.onnx *.qlproj);;QuantLens CALIB.json or ONNX Runtime "
               "table (*.json);;TensorRT or ONNX Runtime cache (*.cache *.calib *.txt);;Q/DQ model (*.onnx);;QuantLens "
               "project (*.qlproj);;All files (*)"));
        if (!path.isEmpty()) importCalibration(path);
    });
    mImportCalibration->setToolTip(
        tr("Scales made elsewhere: QuantLens CALIB.json or project, a TensorRT calibration cache, ONNX Runtime's "
           "calibration table or cache, or a Q/DQ model"));
    mImportPlan = mImportMenu->addAction(tr("Precision &Plan..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(mWindow, tr("Import Precision Plan"), dialogFolder(mDocument),
                                                          tr("Plans (*.json);;All files (*)"));
        if (!path.isEmpty()) importPlan(path);
    });
    mExportPlan = new QAction(tr("Export &Plan..."), this);
    mExportPlan->setToolTip(tr("The precision plan as JSON, for quantlens-cli --plan"));
    connect(mExportPlan, &QAction::triggered, this, [this] {
        // "digits_cnn.plan.json" beside digits_cnn.onnx, as the project and the export are named after the model.
        const QString suggested = withSuffix(mDocument->filePath(), QStringLiteral(".plan.json"));
        const QString path = QFileDialog::getSaveFileName(mWindow, tr("Export Plan"), suggested, tr("Plans (*.json)"));
        if (!path.isEmpty()) exportPlan(path);
    });
    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<Result<ImportedScales>>>::finished, this,
            &ImportController::calibrationRead);
    connect(mDocument, &ModelDocument::modelReplaced, this, &ImportController::updateActions);
    updateActions();
}

ImportController::~ImportController() {
    if (mWatcher.isRunning()) mWatcher.waitForFinished();  // a taken result leaves nothing to wait for
}

void ImportController::updateActions() {
    const bool model = mDocument->model() != nullptr;
    mImportCalibration->setEnabled(model && !mWatcher.isRunning());
    mImportPlan->setEnabled(model);
    mExportPlan->setEnabled(model);
}

void ImportController::importCalibration(const QString& path) {
    if (!mDocument->model() || mWatcher.isRunning()) return;
    mJobModel = mDocument->sharedModel();
    mJobPath = path;
    emit message(tr("Reading the scales of %1...").arg(path));
    mWatcher.setFuture(QtConcurrent::run([model = mJobModel, file = path.toStdString()] {
        return std::make_shared<Result<ImportedScales>>(importScales(model->graph(), file));
    }));
    updateActions();
}

void ImportController::calibrationRead() {
    const auto result = mWatcher.future().takeResult();
    const bool sameModel = mJobModel == mDocument->sharedModel();
    mJobModel.reset();
    updateActions();
    if (!sameModel) {
        emit message(tr("Calibration not imported: another model was opened meanwhile."));
        emit importFinished(false);
        return;
    }
    if (!result->isOk()) {
        fail(tr("Cannot import the calibration"), QString::fromStdString(result->status().message()));
        return;
    }
    ImportedScales& imported = result->value();
    if (imported.calibration.activations.empty()) {
        fail(tr("Cannot import the calibration"),
             tr("%1 (%2) names none of this model's tensors.")
                 .arg(mJobPath, QString::fromUtf8(scaleFormatName(imported.format))));
        return;
    }
    const QString text = outcomeText(mJobPath, imported);
    mDocument->setCalibration(std::make_shared<const CalibrationResult>(std::move(imported.calibration)));
    emit message(text);
    emit importFinished(true);
}

bool ImportController::importPlan(const QString& path) {
    const Model* model = mDocument->model();
    if (!model) return false;
    auto json = readJson(path);
    if (!json) {
        fail(tr("Cannot import the plan"), QString::fromStdString(json.status().message()));
        return false;
    }
    auto plan = PrecisionPlan::fromJson(model->graph(), *json, path.toStdString());
    if (!plan) {
        fail(tr("Cannot import the plan"), QString::fromStdString(plan.status().message()));
        return false;
    }
    mDocument->replacePlan(*plan, tr("Import plan %1").arg(QFileInfo(path).fileName()));
    emit message(tr("Imported the plan %1").arg(path));
    return true;
}

bool ImportController::exportPlan(const QString& path) {
    const Model* model = mDocument->model();
    if (!model) return false;
    const Status written =
        writeFileAtomically(path.toStdString(), dumpJson(mDocument->plan().toJson(model->graph())) + "\n");
    if (!written.isOk()) {
        fail(tr("Cannot export the plan"), QString::fromStdString(written.message()));
        return false;
    }
    emit message(tr("Exported the plan to %1").arg(path));
    return true;
}

void ImportController::fail(const QString& title, const QString& text) {
    emit message(QStringLiteral("%1: %2").arg(title, text));
    emit importFinished(false);
    showMessage(mWindow, QMessageBox::Warning, title, text);
}

}  // namespace ql::ui
