// Issue 18, item 4 (the window's part): File > Import reads a calibration in every format `quantize --calib` reads
// (CALIB.json, a TensorRT cache, ONNX Runtime's table) and a plan JSON made by the CLI; File > Export Plan writes
// the plan the CLI reads.
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

#include <fstream>

#include "core/common/json_util.h"
#include "core/quant/calibration_file.h"
#include "core/quant/trt_cache.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/import_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;

class ImportExportTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theFileMenuHasImportAndExportPlan();
    void importsEveryCalibrationFormat_data();
    void importsEveryCalibrationFormat();
    void exportedPlanImportsBackAsOneUndoStep();
    void aBadPlanIsReportedAndChangesNothing();
};

namespace {

// The sample calibrated once, for writing files in the CLI's formats.
std::shared_ptr<const CalibrationResult> sampleCalibration() {
    static std::shared_ptr<const CalibrationResult> calibration = [] {
        ui::ModelDocument document;
        test::loadSample(document);
        test::calibrateSampleNow(document);
        return document.calibration();
    }();
    return calibration;
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

}  // namespace

void ImportExportTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("import_export_test"));
}

void ImportExportTest::theFileMenuHasImportAndExportPlan() {
    ui::MainWindow window;
    auto* file = window.findChild<QMenu*>(QStringLiteral("FileMenu"));
    QStringList texts;
    for (QAction* action : file->actions()) texts << action->text();
    QVERIFY(texts.contains(QStringLiteral("&Import")));
    QVERIFY(texts.contains(QStringLiteral("Export &Plan...")));
    QStringList imports;
    for (QAction* action : window.importer()->importMenu()->actions()) imports << action->text();
    QVERIFY(imports.contains(QStringLiteral("&Calibration...")));
    QVERIFY(imports.contains(QStringLiteral("Precision &Plan...")));
}

void ImportExportTest::importsEveryCalibrationFormat_data() {
    QTest::addColumn<QString>("format");
    QTest::newRow("CALIB.json") << "calib";
    QTest::newRow("TensorRT cache") << "trt";
    QTest::newRow("ONNX Runtime table") << "ort";
}

void ImportExportTest::importsEveryCalibrationFormat() {
    QFETCH(QString, format);
    test::TempDir dir;
    ui::MainWindow window;
    ui::ModelDocument& document = *window.document();
    test::loadSample(document);
    const auto calibration = sampleCalibration();
    const Graph& graph = document.model()->graph();
    std::string path;
    if (format == "calib") {
        path = dir.file("CALIB.json");
        writeText(path, dumpJson(calibrationToJson(graph, *calibration)));
    } else if (format == "trt") {
        path = dir.file("calib.cache");
        QVERIFY(saveTrtCache(*calibration, 10, path).isOk());
    } else {
        path = dir.file("calibration.json");
        nlohmann::json table = nlohmann::json::object();
        for (const TensorRange& r : calibration->activations) table[r.name] = {r.min, r.max};
        writeText(path, dumpJson(table));
    }
    QSignalSpy finished(window.importer(), &ui::ImportController::importFinished);
    window.importer()->importCalibration(QString::fromStdString(path));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() > 0; }, 10000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY(document.calibration());
    QCOMPARE(document.calibration()->activations.size(), calibration->activations.size());
    const TensorRange& first = calibration->activations.front();
    const TensorRange* imported = document.calibration()->activation(first.name);
    QVERIFY(imported);
    // ONNX Runtime's table holds min and max: its amax is the range that covers both.
    const float expected = format == "ort" ? std::max(std::abs(first.min), std::abs(first.max)) : first.amax;
    QVERIFY(std::abs(imported->amax - expected) <= 1e-3f * std::max(1.0f, expected));
}

void ImportExportTest::exportedPlanImportsBackAsOneUndoStep() {
    test::TempDir dir;
    ui::MainWindow window;
    ui::ModelDocument& document = *window.document();
    test::loadSample(document);
    const PrecisionPlan original = document.plan();
    document.setRequestedPrecision({0, 1}, Precision::Fp16);
    const QString path = QString::fromStdString(dir.file("plan.json"));
    QVERIFY(window.importer()->exportPlan(path));
    std::ifstream in(path.toStdString());
    const auto json = nlohmann::json::parse(in);
    QVERIFY(PrecisionPlan::fromJson(document.model()->graph(), json, "plan").isOk());

    document.undoStack()->undo();
    QCOMPARE(document.plan().requested(0), original.requested(0));
    const int steps = document.undoStack()->count();
    QVERIFY(window.importer()->importPlan(path));
    QCOMPARE(document.plan().requested(0), Precision::Fp16);
    QCOMPARE(document.plan().requested(1), Precision::Fp16);
    QCOMPARE(document.undoStack()->index(), steps);  // the redo step was replaced by the import
}

void ImportExportTest::aBadPlanIsReportedAndChangesNothing() {
    test::TempDir dir;
    ui::MainWindow window;
    ui::ModelDocument& document = *window.document();
    test::loadSample(document);
    const std::string path = dir.file("bad.json");
    writeText(path, R"({"nodes": {"no_such_node": "fp16"}})");
    QSignalSpy messages(window.importer(), &ui::ImportController::message);
    const int steps = document.undoStack()->count();
    QVERIFY(!window.importer()->importPlan(QString::fromStdString(path)));
    QCOMPARE(document.undoStack()->count(), steps);
    QVERIFY(!messages.isEmpty());
}

QTEST_MAIN(ImportExportTest)
#include "import_export_test.moc"
