// Issue 27, item 7 (the window's part): a model in ONNX Runtime's operator form gets the CLI's verdict (one
// trt-unsupported-op error per operator, not one per node) and a one-click switch to the float model it was made
// from, after which calibrate and export work on it as in the CLI.
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "core/export/qoperator_import.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/operator_form_model.h"
#include "tests/ui/window_test_util.h"
#include "ui/model_document.h"
#include "ui/panels/float_import_offer.h"
#include "ui/project_controller.h"

using namespace ql;

class FloatImportOfferTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void operatorFormGetsOneErrorPerOperatorAndTheOffer();
    void theFloatImportCalibratesAndExports();
    void aFloatModelGetsNoOffer();
};

namespace {

int errorsOf(const LintReport& report, const std::string& rule) {
    int count = 0;
    for (const Finding& f : report.findings) count += f.ruleId == rule && f.severity == Severity::Error;
    return count;
}

ui::FloatImportOffer* offerOf(ui::MainWindow& window) {
    return window.findChild<ui::FloatImportOffer*>(QStringLiteral("FloatImportOffer"));
}

}  // namespace

void FloatImportOfferTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("float_import_offer_test"));
}

void FloatImportOfferTest::operatorFormGetsOneErrorPerOperatorAndTheOffer() {
    test::TempDir dir;
    test::operatorFormModel().save(dir.file("dyn.onnx"));
    ui::MainWindow window;
    QVERIFY(test::openAndWait(window, QString::fromStdString(dir.file("dyn.onnx"))));
    // DynamicQuantizeLinear and ConvInteger, two nodes each: two errors, as `lint` reports the file.
    QCOMPARE(errorsOf(window.document()->lint(), "trt-unsupported-op"), 2);
    ui::FloatImportOffer* offer = offerOf(window);
    QVERIFY(offer);
    QVERIFY(!offer->isHidden());
    QVERIFY(!offer->button()->isHidden());
    QVERIFY2(offer->label()->text().contains(QStringLiteral("DynamicQuantizeLinear, ConvInteger")),
             qPrintable(offer->label()->text()));
}

void FloatImportOfferTest::theFloatImportCalibratesAndExports() {
    test::TempDir dir;
    test::operatorFormModel().save(dir.file("dyn.onnx"));
    ui::MainWindow window;
    QVERIFY(test::openAndWait(window, QString::fromStdString(dir.file("dyn.onnx"))));
    ui::ModelDocument* doc = window.document();
    ui::FloatImportOffer* offer = offerOf(window);
    QSignalSpy switched(offer, &ui::FloatImportOffer::switched);
    offer->button()->click();
    QVERIFY(QTest::qWaitFor([&] { return switched.count() == 1; }, 20000));
    QVERIFY(switched.at(0).at(0).toBool());

    const Graph& graph = doc->model()->graph();
    QVERIFY(!hasQOperatorNodes(graph));
    QCOMPARE(errorsOf(doc->lint(), "trt-unsupported-op"), 0);
    QCOMPARE(doc->lint().coverage.weightedLayers, 2);
    QVERIFY(offer->button()->isHidden());  // the banner now says what the model is
    QVERIFY2(offer->label()->text().contains(QStringLiteral("dyn.onnx")), qPrintable(offer->label()->text()));

    QVERIFY(!window.project()->exportAction()->isEnabled());  // nothing to export before a calibration
    doc->setCalibration(std::make_shared<CalibrationResult>(test::uniformCalibration(graph)));
    QVERIFY(window.project()->exportAction()->isEnabled());
    const QString out = QString::fromStdString(dir.file("dyn.qdq.onnx"));
    QSignalSpy exported(window.project(), &ui::ProjectController::exported);
    window.project()->exportTo(out);
    QVERIFY(QTest::qWaitFor([&] { return exported.count() == 1; }, 30000));
    QVERIFY(exported.at(0).at(0).toBool());
    auto written = Model::load(out.toStdString());
    QVERIFY(written.isOk());
    QVERIFY(!hasQOperatorNodes((*written)->graph()));
    QVERIFY(!(*written)->graph().qdqLinks().empty());  // Q/DQ, which TensorRT parses
}

void FloatImportOfferTest::aFloatModelGetsNoOffer() {
    test::TempDir dir;
    ui::MainWindow window;
    QVERIFY(test::openAndWait(window, test::writeTinyModel(dir)));
    QVERIFY(offerOf(window)->isHidden());
    QVERIFY(!offerOf(window)->switchToFloatImport());
}

QTEST_MAIN(FloatImportOfferTest)
#include "float_import_offer_test.moc"
