// Project files and the file workflow: save and reopen restores the plan and results, the unsaved-changes
// prompt can cancel a replacement, a project whose model is gone is reported, recent files are kept.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"
#include "ui/project_file.h"

using namespace ql;
using Choice = ui::ProjectController::UnsavedChoice;

class ProjectTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void saveAndReopenRestoresPlanAndCalibration();
    void cancelInTheUnsavedPromptKeepsTheDocument();
    void projectWithMissingModelIsReported();
    void notAProjectIsReported();
    void openedFilesAreRecent();
    void exportWritesTheModelItsSummaryTheTrtexecCommandAndTheCache();
};

namespace {

QString sampleModel() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

bool openAndWait(ui::MainWindow& window, const QString& path, QString* error = nullptr) {
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QSignalSpy failed(&window, &ui::MainWindow::modelFailedToOpen);
    window.openModel(path);
    const bool done = QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, 10000);
    if (error && failed.count() > 0) *error = failed.at(0).at(1).toString();
    return done && opened.count() == 1;
}

NodeId firstNodeOf(const Graph& graph, const std::string& op) {
    for (const Node& node : graph.nodes())
        if (node.opType == op) return node.id;
    return kNoId;
}

}  // namespace

void ProjectTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("project_test"));
}

void ProjectTest::saveAndReopenRestoresPlanAndCalibration() {
    test::TempDir dir;
    const QString projectPath = QString::fromStdString(dir.file("work.qlproj"));
    NodeId conv = kNoId;
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, sampleModel()));
        ui::ModelDocument* doc = window.document();
        conv = firstNodeOf(doc->model()->graph(), "Conv");
        QVERIFY(conv != kNoId);
        QCOMPARE(doc->plan().requested(conv), Precision::Int8);
        doc->setRequestedPrecision({conv}, Precision::Fp16);
        auto calibration = std::make_shared<CalibrationResult>();
        calibration->samples = 3;
        const std::string input = doc->model()->graph().value(doc->model()->graph().inputs().front()).name;
        TensorRange range;
        range.name = input;
        range.amax = 2.5f;
        range.min = -1.0f;
        range.max = 2.5f;
        calibration->activations.push_back(range);
        doc->setCalibration(calibration);
        QVERIFY(doc->isModified());
        QVERIFY(window.project()->saveProjectAs(projectPath));
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->projectPath(), projectPath);
    }
    ui::MainWindow reopened;
    QVERIFY(openAndWait(reopened, projectPath));
    const ui::ModelDocument* doc = reopened.document();
    QCOMPARE(doc->fileName(), QStringLiteral("digits_cnn.onnx"));
    QCOMPARE(doc->plan().requested(conv), Precision::Fp16);
    QCOMPARE(doc->plan().effective(conv), Precision::Fp16);
    QVERIFY(doc->calibration());
    QCOMPARE(doc->calibration()->samples, 3);
    QCOMPARE(doc->calibration()->activations.size(), size_t{1});
    QCOMPARE(doc->calibration()->activations.front().amax, 2.5f);
    QVERIFY(!doc->isModified());
    QCOMPARE(doc->projectPath(), projectPath);
}

void ProjectTest::cancelInTheUnsavedPromptKeepsTheDocument() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, sampleModel()));
    ui::ModelDocument* doc = window.document();
    const Model* before = doc->model();
    doc->cyclePrecision({0});
    QVERIFY(doc->isModified());
    int asked = 0;
    window.project()->setUnsavedPrompt([&] {
        ++asked;
        return Choice::Cancel;
    });
    window.openModel(sampleModel());
    QCOMPARE(asked, 1);
    QVERIFY(!window.isLoading());
    QCOMPARE(doc->model(), before);
    window.project()->setUnsavedPrompt([&] {
        ++asked;
        return Choice::Discard;
    });
    QVERIFY(openAndWait(window, sampleModel()));
    QCOMPARE(asked, 2);
    QVERIFY(doc->model() != before);
    QVERIFY(!doc->isModified());
    doc->cyclePrecision({0});
    doc->undoStack()->undo();  // back to the saved state: nothing to ask
    QVERIFY(!doc->isModified());
}

void ProjectTest::projectWithMissingModelIsReported() {
    test::TempDir dir;
    test::writeFile(dir.file("gone.qlproj"),
                    R"({"format": "quantlens-project", "version": 1, "model": "nowhere/gone.onnx", "plan": null})");
    ui::MainWindow window;
    QString error;
    QVERIFY(!openAndWait(window, QString::fromStdString(dir.file("gone.qlproj")), &error));
    QVERIFY2(error.contains(QStringLiteral("gone.qlproj")) && error.contains(QStringLiteral("nowhere/gone.onnx")),
             qPrintable(error));
    QVERIFY(!window.document()->model());
}

void ProjectTest::notAProjectIsReported() {
    test::TempDir dir;
    test::writeFile(dir.file("plan.qlproj"), R"({"format": "quantlens-plan", "version": 1, "nodes": {}})");
    auto loaded = ui::loadProject(QString::fromStdString(dir.file("plan.qlproj")));
    QVERIFY(!loaded->model);
    QVERIFY2(loaded->error.contains(QStringLiteral("plan.qlproj")), qPrintable(loaded->error));
    test::writeFile(dir.file("junk.qlproj"), "{ not json");
    loaded = ui::loadProject(QString::fromStdString(dir.file("junk.qlproj")));
    QVERIFY(!loaded->model);
    QVERIFY(loaded->error.contains(QStringLiteral("junk.qlproj")));
}

void ProjectTest::openedFilesAreRecent() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, sampleModel()));
    const QStringList recent = window.project()->recentFiles();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(recent.front(), QFileInfo(sampleModel()).absoluteFilePath());
    QCOMPARE(recent.count(recent.front()), 1);
}

void ProjectTest::exportWritesTheModelItsSummaryTheTrtexecCommandAndTheCache() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, sampleModel()));
    ui::ModelDocument* doc = window.document();
    QVERIFY(!window.project()->exportAction()->isEnabled());  // nothing to export before a calibration
    test::calibrateSampleNow(*doc);
    QVERIFY(window.project()->exportAction()->isEnabled());
    const NodeId conv = firstNodeOf(doc->model()->graph(), "Conv");
    doc->setRequestedPrecision({conv}, Precision::Fp16);

    test::TempDir dir;
    const QString out = QString::fromStdString(dir.file("digits.qdq.onnx"));
    QSignalSpy exported(window.project(), &ui::ProjectController::exported);
    window.project()->exportTo(out);
    QVERIFY(QTest::qWaitFor([&] { return exported.count() == 1; }, 30000));
    QVERIFY(exported.at(0).at(0).toBool());
    for (const char* file :
         {"digits.qdq.onnx", "digits.qdq.summary.json", "digits.qdq.trtexec.sh", "digits.qdq.calib.cache"})
        QVERIFY2(QFileInfo::exists(QString::fromStdString(dir.file(file))), file);
    auto model = Model::load(out.toStdString());
    QVERIFY(model.isOk());
    int quantizeNodes = 0;
    for (const Node& node : (*model)->graph().nodes()) quantizeNodes += node.opType == "QuantizeLinear" ? 1 : 0;
    QVERIFY(quantizeNodes > 0);
    std::ifstream trtexec(dir.file("digits.qdq.trtexec.sh"));
    std::stringstream command;
    command << trtexec.rdbuf();
    const std::string text = command.str();
    QVERIFY(text.find("--int8") != std::string::npos && text.find("--fp16") != std::string::npos);
    const std::string convName = doc->model()->graph().node(conv).name;
    QVERIFY2(text.find("--layerPrecisions=") != std::string::npos && text.find(convName + ":fp16") != std::string::npos,
             text.c_str());
}

QTEST_MAIN(ProjectTest)
#include "project_test.moc"
