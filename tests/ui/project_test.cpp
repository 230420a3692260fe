// Project files and the file workflow: save and reopen restores the plan, the TensorRT target and results, the
// unsaved-changes prompt can cancel a replacement, a project whose model is gone is reported, recent files are
// kept, and the export writes what the default target (10.x, strongly typed) builds.
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "core/engine/latency_model.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/precision_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/project_controller.h"
#include "ui/project_file.h"

using namespace ql;
using Choice = ui::ProjectController::UnsavedChoice;

class ProjectTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void saveAndReopenRestoresPlanAndCalibration();
    void saveAndReopenRestoresTheTrtTargetAndTyping();
    void theTunersReasonsSurviveSaveAndReopen();
    void theFittedGpuProfileSurvivesSaveAndReopen();
    void aBadGpuProfileNamesTheProject();
    void projectTargetFallsBackToTheVersionDefault_data();
    void projectTargetFallsBackToTheVersionDefault();
    void cancelInTheUnsavedPromptKeepsTheDocument();
    void projectWithMissingModelIsReported();
    void notAProjectIsReported();
    void openedFilesAreRecent();
    void exportWritesTheModelItsSummaryTheTrtexecCommandAndTheCache();
};

namespace {

using test::openAndWait;

QString sampleModel() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
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

// A tune applied in the window: the Reason and Tune columns say why a layer left INT8, before and after reopening
// the project (the document applies a tune as precision edits; the project keeps the tune's notes in the plan).
void ProjectTest::theTunersReasonsSurviveSaveAndReopen() {
    test::TempDir dir;
    const QString projectPath = QString::fromStdString(dir.file("tuned.qlproj"));
    const std::string note = "tune: fp16, alone in INT8: 18.3 dB at the outputs (output-sqnr>=35)";
    NodeId conv = kNoId;
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, sampleModel()));
        ui::ModelDocument* doc = window.document();
        conv = firstNodeOf(doc->model()->graph(), "Conv");
        auto report = std::make_shared<TuneReport>();
        report->plan = doc->plan();
        report->plan.setRequested(conv, Precision::Fp16, note);
        doc->replacePlan(report->plan, QStringLiteral("Apply tune"));
        doc->setTuneReport(report);
        QCOMPARE(doc->plan().requested(conv), Precision::Fp16);
        QVERIFY(window.project()->saveProjectAs(projectPath));
    }
    const nlohmann::json saved = nlohmann::json::parse(readText(projectPath.toStdString()));
    QVERIFY2(saved["plan"].contains("reasons"), saved["plan"].dump().c_str());
    ui::MainWindow reopened;
    QVERIFY(openAndWait(reopened, projectPath));
    const ui::ModelDocument* doc = reopened.document();
    QVERIFY(!doc->tuneReport());  // the report itself is not kept: the reasons are
    QCOMPARE(doc->plan().placementNote(conv), note);
    ui::PrecisionTableModel* table = reopened.findChild<ui::PrecisionPanel*>()->tableModel();
    int row = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->index(r, ui::PrecisionTableModel::NodeColumn).data().toString().toStdString() ==
            doc->model()->graph().node(conv).name)
            row = r;
    QVERIFY(row >= 0);
    QCOMPARE(table->index(row, ui::PrecisionTableModel::ReasonColumn).data().toString(), QString::fromStdString(note));
    QVERIFY(
        table->index(row, ui::PrecisionTableModel::TuneColumn).data().toString().startsWith(QStringLiteral("fp16")));
}

// The GPU profile `fit-gpu` fitted (issue 28, item 3) is kept in the project, terms and fit quality alike, so later
// predictions use it.
void ProjectTest::theFittedGpuProfileSurvivesSaveAndReopen() {
    test::TempDir dir;
    const QString projectPath = QString::fromStdString(dir.file("gpu.qlproj"));
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, sampleModel()));
        ui::ModelDocument* doc = window.document();
        QVERIFY(!doc->gpuProfile());
        GpuProfile profile = defaultGpuProfile(*findGpu("rtx3060-laptop"));
        profile.classes[static_cast<size_t>(CostClass::Convolution)].computeEfficiency = 0.31;
        profile.classes[static_cast<size_t>(CostClass::Pointwise)].overheadUs = 4.5;
        FitQuality fit;
        fit.reports = {"resnet18.layers.json", "alexnet.layers.json"};
        fit.layers = 40;
        fit.spearman = 0.8;
        fit.medianLayerError = 0.2;
        fit.totalError = 0.05;
        fit.leaveOneOutError = 0.12;
        profile.fit = fit;
        doc->setGpuProfile(std::make_shared<const GpuProfile>(profile));
        QVERIFY(doc->isModified());
        QVERIFY(window.project()->saveProjectAs(projectPath));
    }
    const nlohmann::json saved = nlohmann::json::parse(readText(projectPath.toStdString()));
    QVERIFY(saved.contains("gpu_profile"));
    QCOMPARE(QString::fromStdString(saved["gpu_profile"].value("gpu", "")), QStringLiteral("rtx3060-laptop"));

    ui::MainWindow reopened;
    QVERIFY(openAndWait(reopened, projectPath));
    const auto profile = reopened.document()->gpuProfile();
    QVERIFY(profile);
    QCOMPARE(QString::fromStdString(profile->gpu.name), QStringLiteral("rtx3060-laptop"));
    QCOMPARE(profile->classes[static_cast<size_t>(CostClass::Convolution)].computeEfficiency, 0.31);
    QCOMPARE(profile->classes[static_cast<size_t>(CostClass::Pointwise)].overheadUs, 4.5);
    QVERIFY(profile->fit);
    QCOMPARE(profile->fit->reports.size(), size_t{2});
    QCOMPARE(profile->fit->checkedError(), 0.12);
    QVERIFY(!reopened.document()->isModified());
}

void ProjectTest::aBadGpuProfileNamesTheProject() {
    test::TempDir dir;
    const std::string model = QFileInfo(sampleModel()).absoluteFilePath().toStdString();
    test::writeFile(dir.file("bad.qlproj"), R"({"format": "quantlens-project", "version": 1, "model_absolute": ")" +
                                                model +
                                                R"(", "gpu_profile": {"format": "quantlens-gpu-profile", )"
                                                R"("version": 1, "gpu": "gtx480"}})");
    const auto loaded = ui::loadProject(QString::fromStdString(dir.file("bad.qlproj")));
    QVERIFY(!loaded->model);
    QVERIFY2(loaded->error.contains(QStringLiteral("bad.qlproj")) && loaded->error.contains(QStringLiteral("gtx480")),
             qPrintable(loaded->error));
}

void ProjectTest::saveAndReopenRestoresTheTrtTargetAndTyping() {
    test::TempDir dir;
    const QString projectPath = QString::fromStdString(dir.file("weak.qlproj"));
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, sampleModel()));
        window.document()->setTrtTarget({TrtVersion::Trt10, TrtTyping::Weak});
        QVERIFY(window.document()->isModified());
        QVERIFY(window.project()->saveProjectAs(projectPath));
    }
    const nlohmann::json saved = nlohmann::json::parse(readText(projectPath.toStdString()));
    QCOMPARE(QString::fromStdString(saved.value("trt", "")), QStringLiteral("10.x"));
    QCOMPARE(QString::fromStdString(saved.value("typing", "")), QStringLiteral("weak"));

    ui::MainWindow reopened;
    QVERIFY(openAndWait(reopened, projectPath));
    QCOMPARE(reopened.document()->trtTarget().version, TrtVersion::Trt10);
    QCOMPARE(reopened.document()->trtTarget().typing, TrtTyping::Weak);
    QVERIFY(!reopened.document()->isModified());
    const auto* label = reopened.findChild<QLabel*>(QStringLiteral("TrtTargetLabel"));
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("TensorRT 10.x, weakly typed"));
}

// Projects from before "typing" get the version's default; a typing the version cannot build, or an unreadable
// member, never fails the load.
void ProjectTest::projectTargetFallsBackToTheVersionDefault_data() {
    QTest::addColumn<QString>("members");
    QTest::addColumn<int>("version");
    QTest::addColumn<int>("typing");
    const int weak = static_cast<int>(TrtTyping::Weak), strong = static_cast<int>(TrtTyping::Strong);
    const int v86 = static_cast<int>(TrtVersion::Trt86), v10 = static_cast<int>(TrtVersion::Trt10),
              v11 = static_cast<int>(TrtVersion::Trt11);
    QTest::newRow("8.6 without typing") << R"("trt": "8.6")" << v86 << weak;
    QTest::newRow("10.x without typing") << R"("trt": "10.x")" << v10 << strong;
    QTest::newRow("11.x without typing") << R"("trt": "11.x")" << v11 << strong;
    QTest::newRow("no trt at all") << R"("plan": null)" << v10 << strong;
    QTest::newRow("10.x weak") << R"("trt": "10.x", "typing": "weak")" << v10 << weak;
    QTest::newRow("11.x weak cannot be built") << R"("trt": "11.x", "typing": "weak")" << v11 << strong;
    QTest::newRow("8.6 strong cannot be built") << R"("trt": "8.6", "typing": "strong")" << v86 << weak;
    QTest::newRow("unknown typing") << R"("trt": "8.6", "typing": "loose")" << v86 << weak;
    QTest::newRow("not strings") << R"("trt": 11, "typing": true)" << v10 << strong;
}

void ProjectTest::projectTargetFallsBackToTheVersionDefault() {
    QFETCH(QString, members);
    QFETCH(int, version);
    QFETCH(int, typing);
    test::TempDir dir;
    const std::string model = QFileInfo(sampleModel()).absoluteFilePath().toStdString();
    test::writeFile(dir.file("old.qlproj"), R"({"format": "quantlens-project", "version": 1, "model_absolute": ")" +
                                                model + "\", " + members.toStdString() + "}");
    const auto loaded = ui::loadProject(QString::fromStdString(dir.file("old.qlproj")));
    QVERIFY2(loaded->model, qPrintable(loaded->error));
    QCOMPARE(static_cast<int>(loaded->trtTarget.version), version);
    QCOMPARE(static_cast<int>(loaded->trtTarget.typing), typing);
}

void ProjectTest::cancelInTheUnsavedPromptKeepsTheDocument() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, sampleModel()));
    ui::ModelDocument* doc = window.document();
    const Model* before = doc->model();
    doc->cyclePrecision({0});
    QVERIFY(doc->isModified());
    // The prompt lists what changed, and only that.
    QCOMPARE(doc->unsavedChanges(), QStringList{QStringLiteral("precisions")});
    doc->setTrtTarget({TrtVersion::Trt11, TrtTyping::Strong});
    QCOMPARE(doc->unsavedChanges(), (QStringList{QStringLiteral("precisions"), QStringLiteral("TensorRT target")}));
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
    QVERIFY(doc->unsavedChanges().isEmpty());
    doc->cyclePrecision({0});
    doc->undoStack()->undo();  // back to the saved state: nothing to ask
    QVERIFY(!doc->isModified());
    QVERIFY(doc->unsavedChanges().isEmpty());
    // A calibration run without "measure the error" clears no analysis: the prompt must not list one.
    doc->setAnalysis(AnalysisMode::Accumulated, nullptr);
    doc->setAnalysis(AnalysisMode::Isolated, nullptr);
    QVERIFY(!doc->isModified());
    QVERIFY(doc->unsavedChanges().isEmpty());
    doc->setAnalysis(AnalysisMode::Accumulated, std::make_shared<AnalysisReport>());
    QCOMPARE(doc->unsavedChanges(), QStringList{QStringLiteral("error analysis")});
}

void ProjectTest::projectWithMissingModelIsReported() {
    test::TempDir dir;
    test::writeFile(dir.file("gone.qlproj"),
                    R"({"format": "quantlens-project", "version": 1, "model": "nowhere/gone.onnx", "plan": null})");
    ui::MainWindow window;
    window.project()->setLocatePrompt([](const QString&, const QString&) { return QString(); });  // Cancel
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
    // The default target, 10.x strongly typed: the model's types decide (the FP16 Conv is a float16 island), so
    // the script passes --stronglyTyped and no precision flag; 10.x still has calibrators, so the cache is there.
    const std::string text = readText(dir.file("digits.qdq.trtexec.sh"));
    QVERIFY2(text.find("--stronglyTyped") != std::string::npos, text.c_str());
    for (const char* flag : {"--int8", "--fp16", "--layerPrecisions", "--precisionConstraints"})
        QVERIFY2(text.find(flag) == std::string::npos, flag);
    const nlohmann::json summary = nlohmann::json::parse(readText(dir.file("digits.qdq.summary.json")));
    QCOMPARE(QString::fromStdString(summary["target"].value("typing", "")), QStringLiteral("strong"));
    QVERIFY(summary["fp16_islands"].value("nodes", 0) > 0);
}

QTEST_MAIN(ProjectTest)
#include "project_test.moc"
