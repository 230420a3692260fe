// Issue 18, item 2: opening another model resets every dock (no histogram caption, scatter or error axes of the
// previous model) and frees the previous model: nothing keeps it, its calibration or its analysis alive.
#include <qcustomplot.h>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "tests/ui/window_test_util.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/layer_error_plot.h"
#include "ui/plots/output_scatter_plot.h"
#include "ui/project_controller.h"

using namespace ql;

class ModelSwitchTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void openingAnotherModelResetsEveryDockAndFreesThePreviousOne();
};

namespace {

using test::openAndWait;
using test::writeTinyModel;

}  // namespace

void ModelSwitchTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("model_switch_test"));
}

void ModelSwitchTest::openingAnotherModelResetsEveryDockAndFreesThePreviousOne() {
    test::TempDir dir;
    ui::MainWindow window;
    window.project()->setUnsavedPrompt([] { return ui::ProjectController::UnsavedChoice::Discard; });
    window.resize(1280, 800);
    window.show();
    QVERIFY(openAndWait(window, test::sampleModelPath()));
    test::calibrateSampleNow(*window.document());
    auto* histogram = window.findChild<ui::HistogramPlot*>();
    auto* scatter = window.findChild<ui::OutputScatterPlot*>();
    auto* layers = window.findChild<ui::LayerErrorPlot*>();
    QVERIFY(histogram && scatter && layers);
    const QString tensor = QString::fromStdString(window.document()->calibration()->activations.back().name);
    histogram->showTensor(tensor);
    QVERIFY(histogram->customPlot()->xAxis->label().contains(tensor));
    QVERIFY(scatter->pointCount() > 0 && scatter->placeholderText().isEmpty());

    std::weak_ptr<const Model> oldModel = window.document()->sharedModel();
    std::weak_ptr<const CalibrationResult> oldCalibration = window.document()->calibration();
    std::weak_ptr<const AnalysisReport> oldAnalysis = window.document()->analysis(AnalysisMode::Accumulated);
    QVERIFY(openAndWait(window, writeTinyModel(dir)));

    QVERIFY(!histogram->customPlot()->xAxis->label().contains(tensor));
    QVERIFY(!histogram->placeholderText().isEmpty());
    QVERIFY(!scatter->placeholderText().isEmpty());
    QCOMPARE(scatter->pointCount(), 0);
    QVERIFY(!scatter->customPlot()->xAxis->visible());
    QCOMPARE(scatter->customPlot()->xAxis->range().upper, 1.0);
    QVERIFY(!layers->placeholderText().isEmpty());
    QCOMPARE(layers->customPlot()->xAxis->range().upper, 1.0);
    QVERIFY(oldModel.expired());
    QVERIFY(oldCalibration.expired());
    QVERIFY(oldAnalysis.expired());
}

QTEST_MAIN(ModelSwitchTest)
#include "model_switch_test.moc"
