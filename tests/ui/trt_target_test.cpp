// The TensorRT target in the window: Quantize > TensorRT Target and the status bar name it, choosing one
// re-decides the precisions and marks the document modified, the FP16 guard keeps layers FP32 once a
// calibration is known, and the export writes what the chosen TensorRT builds.
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"
#include "ui/trt_target_controller.h"

using namespace ql;

class TrtTargetTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void defaultTargetIsTenStronglyTypedInTheMenuAndTheStatusBar();
    void choosingElevenRelabelsRedecidesAndMarksModified();
    void aModelOpenedLaterKeepsTheChosenTarget();
    void fp16GuardKeepsLayersFp32WithTheirReasonOnceCalibrated();
    void exportForElevenHasNoPrecisionFlagsAndNoCache();
    void exportForTenWeaklyTypedPinsTheFp32Layers();
};

namespace {

using test::openAndWait;

QString statusText(const ui::MainWindow& window) {
    const auto* label = window.findChild<QLabel*>(QStringLiteral("TrtTargetLabel"));
    return label ? label->text() : QString();
}

// Through the menu, as the user does.
void choose(ui::MainWindow& window, TrtTarget target) {
    QAction* action = window.trtTarget()->actionFor(target);
    QVERIFY(action);
    action->trigger();
}

NodeId firstNodeOf(const Graph& graph, const std::string& op) {
    for (const Node& node : graph.nodes())
        if (node.opType == op) return node.id;
    return kNoId;
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Exports the open document to `dir`/digits.qdq.onnx and returns the window's message about it.
QString exportAndWait(ui::MainWindow& window, const test::TempDir& dir) {
    QSignalSpy exported(window.project(), &ui::ProjectController::exported);
    QSignalSpy messages(window.project(), &ui::ProjectController::message);
    window.project()->exportTo(QString::fromStdString(dir.file("digits.qdq.onnx")));
    if (!QTest::qWaitFor([&] { return exported.count() == 1; }, 30000)) return QStringLiteral("timed out");
    return messages.isEmpty() ? QString() : messages.back().at(0).toString();
}

}  // namespace

void TrtTargetTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("trt_target_test"));
}

void TrtTargetTest::defaultTargetIsTenStronglyTypedInTheMenuAndTheStatusBar() {
    ui::MainWindow window;
    QCOMPARE(statusText(window), QStringLiteral("TensorRT 10.x, strongly typed"));  // before any model too
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    QCOMPARE(statusText(window), QStringLiteral("TensorRT 10.x, strongly typed"));
    QStringList texts;
    for (QAction* action : window.trtTarget()->menu()->actions()) {
        QVERIFY(action->isCheckable());
        QCOMPARE(action->isChecked(), action == window.trtTarget()->actionFor({TrtVersion::Trt10, TrtTyping::Strong}));
        texts.append(action->text());
    }
    QCOMPARE(texts, QStringList({QStringLiteral("TensorRT 8.6 (weakly typed)"),
                                 QStringLiteral("TensorRT 10.x, strongly typed (default)"),
                                 QStringLiteral("TensorRT 10.x, weakly typed (deprecated)"),
                                 QStringLiteral("TensorRT 11.x (strongly typed)")}));
    QVERIFY(!window.trtTarget()->actionFor({TrtVersion::Trt11, TrtTyping::Weak}));
    QVERIFY(!window.trtTarget()->actionFor({TrtVersion::Trt86, TrtTyping::Strong}));
}

void TrtTargetTest::choosingElevenRelabelsRedecidesAndMarksModified() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    ui::ModelDocument* doc = window.document();
    QVERIFY(!doc->isModified());
    QSignalSpy planChanged(doc, &ui::ModelDocument::planChanged);
    QSignalSpy lintChanged(doc, &ui::ModelDocument::lintChanged);
    choose(window, {TrtVersion::Trt11, TrtTyping::Strong});
    QCOMPARE(doc->trtVersion(), TrtVersion::Trt11);
    QCOMPARE(doc->trtTarget().typing, TrtTyping::Strong);
    QCOMPARE(statusText(window), QStringLiteral("TensorRT 11.x, strongly typed"));
    QCOMPARE(planChanged.count(), 1);
    QCOMPARE(lintChanged.count(), 1);
    QVERIFY(doc->isModified());
    QVERIFY(window.isWindowModified());
    QVERIFY(!window.trtTarget()->actionFor({TrtVersion::Trt10, TrtTyping::Strong})->isChecked());

    choose(window, {TrtVersion::Trt11, TrtTyping::Strong});  // the same target again: nothing to re-decide
    QCOMPARE(planChanged.count(), 1);
    // A typing the version cannot build falls back to the version's own.
    doc->setTrtTarget({TrtVersion::Trt86, TrtTyping::Strong});
    QCOMPARE(doc->trtTarget().typing, TrtTyping::Weak);
    QCOMPARE(statusText(window), QStringLiteral("TensorRT 8.6, weakly typed"));
    QVERIFY(window.trtTarget()->actionFor({TrtVersion::Trt86, TrtTyping::Weak})->isChecked());
}

void TrtTargetTest::aModelOpenedLaterKeepsTheChosenTarget() {
    ui::MainWindow window;
    window.project()->setUnsavedPrompt([] { return ui::ProjectController::UnsavedChoice::Discard; });
    choose(window, {TrtVersion::Trt10, TrtTyping::Weak});
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    QCOMPARE(window.document()->trtTarget().version, TrtVersion::Trt10);
    QCOMPARE(window.document()->trtTarget().typing, TrtTyping::Weak);
    QCOMPARE(statusText(window), QStringLiteral("TensorRT 10.x, weakly typed"));
    QVERIFY(!window.document()->isModified());
}

void TrtTargetTest::fp16GuardKeepsLayersFp32WithTheirReasonOnceCalibrated() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    ui::ModelDocument* doc = window.document();
    const Graph& graph = doc->model()->graph();
    const NodeId relu = firstNodeOf(graph, "Relu");
    QVERIFY(relu != kNoId);
    doc->setRequestedPrecision({relu}, Precision::Fp16);
    QCOMPARE(doc->plan().effective(relu), Precision::Fp16);

    // Its output reaches 1000: beyond FP16's safe range for activations (512).
    auto calibration = std::make_shared<CalibrationResult>();
    calibration->samples = 1;
    TensorRange range;
    range.name = graph.value(graph.node(relu).outputs.front()).name;
    range.amax = range.max = 1000.0f;
    calibration->activations.push_back(range);
    QSignalSpy planChanged(doc, &ui::ModelDocument::planChanged);
    doc->setCalibration(calibration);
    QCOMPARE(planChanged.count(), 1);
    QCOMPARE(doc->plan().effective(relu), Precision::Fp32);
    QVERIFY2(doc->plan().reason(relu).find("FP16 guard") != std::string::npos, doc->plan().reason(relu).c_str());

    // A new calibration without the outlier gives the layer back its FP16.
    doc->setCalibration(std::make_shared<CalibrationResult>());
    QCOMPARE(doc->plan().effective(relu), Precision::Fp16);
}

void TrtTargetTest::exportForElevenHasNoPrecisionFlagsAndNoCache() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    ui::ModelDocument* doc = window.document();
    test::calibrateSampleNow(*doc);
    choose(window, {TrtVersion::Trt11, TrtTyping::Strong});
    // One FP16 layer (a float16 island) and one the FP16 guard keeps FP32 (its output made to reach 1000).
    const Graph& graph = doc->model()->graph();
    const NodeId conv = firstNodeOf(graph, "Conv"), relu = firstNodeOf(graph, "Relu");
    doc->setRequestedPrecision({conv, relu}, Precision::Fp16);
    auto calibration = std::make_shared<CalibrationResult>(*doc->calibration());
    for (TensorRange& range : calibration->activations)
        if (range.name == graph.value(graph.node(relu).outputs.front()).name) range.amax = range.max = 1000.0f;
    doc->setCalibration(calibration);
    QCOMPARE(doc->plan().effective(conv), Precision::Fp16);
    QCOMPARE(doc->plan().effective(relu), Precision::Fp32);
    QVERIFY(window.project()->exportAction()->toolTip().contains(QStringLiteral("TensorRT 11.x, strongly typed")));

    test::TempDir dir;
    const QString message = exportAndWait(window, dir);
    QVERIFY2(message.contains(QStringLiteral("for TensorRT 11.x, strongly typed")) &&
                 message.contains(QStringLiteral(" in FP16")) &&
                 message.contains(QStringLiteral("no precision flags")) &&
                 message.contains(QStringLiteral("1 layer kept FP32 by the FP16 guard")) &&
                 message.contains(QStringLiteral("No calibration cache")),
             qPrintable(message));
    for (const char* file : {"digits.qdq.onnx", "digits.qdq.summary.json", "digits.qdq.trtexec.sh"})
        QVERIFY2(QFileInfo::exists(QString::fromStdString(dir.file(file))), file);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(dir.file("digits.qdq.calib.cache"))));
    const std::string script = readText(dir.file("digits.qdq.trtexec.sh"));
    QVERIFY2(script.find("--onnx=") != std::string::npos, script.c_str());
    for (const char* flag : {"--int8", "--fp16", "--best", "--stronglyTyped", "--layerPrecisions"})
        QVERIFY2(script.find(flag) == std::string::npos, flag);
    const std::string summary = readText(dir.file("digits.qdq.summary.json"));
    QVERIFY2(summary.find("\"11.x\"") != std::string::npos, summary.substr(0, 400).c_str());
}

void TrtTargetTest::exportForTenWeaklyTypedPinsTheFp32Layers() {
    ui::MainWindow window;
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    ui::ModelDocument* doc = window.document();
    test::calibrateSampleNow(*doc);
    choose(window, {TrtVersion::Trt10, TrtTyping::Weak});
    const NodeId conv = firstNodeOf(doc->model()->graph(), "Conv");
    doc->setRequestedPrecision({conv}, Precision::Fp32);

    test::TempDir dir;
    const QString message = exportAndWait(window, dir);
    QVERIFY2(message.contains(QStringLiteral("for TensorRT 10.x, weakly typed")) &&
                 message.contains(QStringLiteral("--int8 --fp16")) &&
                 message.contains(QStringLiteral("1 layer pinned FP32 (--layerPrecisions)")) &&
                 message.contains(QStringLiteral("Calibration cache, for implicit quantization")),
             qPrintable(message));
    QVERIFY(QFileInfo::exists(QString::fromStdString(dir.file("digits.qdq.calib.cache"))));
    const std::string script = readText(dir.file("digits.qdq.trtexec.sh"));
    const std::string convName = doc->model()->graph().node(conv).name;
    QVERIFY2(script.find("--int8") != std::string::npos && script.find("--fp16") != std::string::npos &&
                 script.find(convName + ":fp32") != std::string::npos,
             script.c_str());
    QVERIFY(script.find("--stronglyTyped") == std::string::npos);
}

QTEST_MAIN(TrtTargetTest)
#include "trt_target_test.moc"
