// Issue 18, item 3: projects keep the calibration data settings of their model (never "data": {}), the output
// scatter comes back with the project, the dialog's paths belong to one model (another model never gets them),
// and a project whose model moved offers Locate....
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include <fstream>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/calibration/data_settings.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/project_controller.h"
#include "ui/project_file.h"

using namespace ql;

class ProjectDataTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theDialogsSettingsAreSavedInTheProject();
    void anotherModelNeverGetsThePreviousModelsData();
    void theOutputScatterIsRestored();
    void aMovedModelCanBeLocated();
};

namespace {

using test::openAndWait;
using test::writeTinyModel;

QString dialogDataPath(ui::MainWindow& window) {
    auto* controller = window.findChild<ui::CalibrationController*>();
    if (!controller || !controller->openDialog()) return QStringLiteral("<no dialog>");
    const QString path = controller->dialog()->dataPath(0);
    controller->dialog()->reject();
    return path;
}

void noPrompt(ui::MainWindow& window) {
    window.project()->setUnsavedPrompt([] { return ui::ProjectController::UnsavedChoice::Discard; });
}

}  // namespace

void ProjectDataTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("project_data_test"));
}

void ProjectDataTest::theDialogsSettingsAreSavedInTheProject() {
    test::TempDir dir;
    const QString project = QString::fromStdString(dir.file("data.qlproj"));
    const QString data = QString::fromStdString(test::sampleDataPath("digits_calib.npy"));
    {
        ui::MainWindow window;
        noPrompt(window);
        QVERIFY(openAndWait(window, test::sampleModelPath()));
        auto* controller = window.findChild<ui::CalibrationController*>();
        QVERIFY(controller->openDialog(data));
        controller->dialog()->setSampleCount(32);
        controller->dialog()->setAnalyze(false);
        controller->dialog()->accept();  // calibrates in the background and keeps the settings
        QVERIFY(QTest::qWaitFor([&] { return window.document()->calibration() != nullptr; }, 30000));
        QVERIFY(window.project()->saveProjectAs(project));
    }
    std::ifstream in(project.toStdString());
    const auto json = nlohmann::json::parse(in);
    QVERIFY(json["data"].is_object() && !json["data"].empty());
    QCOMPARE(QString::fromStdString(json["data"]["data"][0].get<std::string>()), data);
    QCOMPARE(json["data"]["samples"].get<int>(), 32);

    ui::MainWindow reopened;
    QVERIFY(openAndWait(reopened, project));
    QCOMPARE(dialogDataPath(reopened), data);
}

void ProjectDataTest::anotherModelNeverGetsThePreviousModelsData() {
    test::TempDir dir;
    const QString data = QString::fromStdString(test::sampleDataPath("digits_calib.npy"));
    ui::MainWindow window;
    noPrompt(window);
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    ui::keepDataSettings(*window.document(), {{"data", {data.toStdString()}}});
    QVERIFY(openAndWait(window, writeTinyModel(dir)));
    QCOMPARE(dialogDataPath(window), QString());
    // The sample, opened again without a project, gets its own data back.
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    QCOMPARE(dialogDataPath(window), data);
}

void ProjectDataTest::theOutputScatterIsRestored() {
    test::TempDir dir;
    const QString project = QString::fromStdString(dir.file("scatter.qlproj"));
    int points = 0;
    {
        ui::ModelDocument document;
        test::loadSample(document);
        test::calibrateSampleNow(document);
        points = static_cast<int>(document.analysis(AnalysisMode::Accumulated)->outputPairs.size());
        QVERIFY(points > 0);
        QVERIFY(ui::saveProject(document, project).isOk());
    }
    ui::MainWindow window;
    QVERIFY(openAndWait(window, project));
    auto* scatter = window.findChild<ui::OutputScatterPlot*>();
    QCOMPARE(scatter->pointCount(), points);
    QVERIFY(!window.document()->isAnalysisStale());
}

void ProjectDataTest::aMovedModelCanBeLocated() {
    test::TempDir dir;
    const QString model = QString::fromStdString(dir.file("digits.onnx"));
    const QString moved = QString::fromStdString(dir.file("moved.onnx"));
    const QString project = QString::fromStdString(dir.file("moved.qlproj"));
    QVERIFY(QFile::copy(test::sampleModelPath(), model));
    {
        ui::ModelDocument document;
        const auto loaded = ui::ModelDocument::load(model);
        document.replaceModel(*loaded);
        QVERIFY(ui::saveProject(document, project).isOk());
    }
    QVERIFY(QFile::rename(model, moved));

    ui::MainWindow window;
    QString asked, askedFor;
    window.project()->setLocatePrompt([&](const QString& projectPath, const QString& message) -> QString {
        asked = message;
        askedFor = projectPath;
        return moved;
    });
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    window.openModel(project);
    QVERIFY(QTest::qWaitFor([&] { return opened.count() > 0; }, 10000));
    QVERIFY(asked.contains(QStringLiteral("digits.onnx")));
    QCOMPARE(askedFor, project);
    QCOMPARE(window.document()->filePath(), moved);
    QCOMPARE(window.document()->projectPath(), project);
    QVERIFY(window.document()->isModified());  // saving records the model's new place
}

QTEST_MAIN(ProjectDataTest)
#include "project_data_test.moc"
