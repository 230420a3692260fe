// Per-tensor calibration methods and calibration findings in the window: choosing another method's range in the
// histogram panel is one undo step that changes the amax the plan uses (and the diagnosis, the bold line, the
// combo); it marks the analysis stale until undone; replacing the plan carries tensor methods in one step; an
// entropy calibration of a spiky input puts calib-* findings in the lint dock, and clicking one shows the tensor;
// another method for the tensor clears them.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

#include "core/data/npy.h"
#include "core/lint/linter.h"
#include "core/quant/qdq_placement.h"
#include "tests/support/model_builder.h"
#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/calibration/calibration_job.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/findings_panel.h"
#include "ui/panels/precision_table_model.h"
#include "ui/plots/histogram_plot.h"
#include "ui/plots/layer_error_plot.h"

using namespace ql;

class TensorMethodTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void overrideIsUndoableAndChangesTheAmaxThePlanUses();
    void overrideMarksTheAnalysisStale();
    void replacePlanCarriesTensorMethodsInOneStep();
    void entropyOnASpikyInputGivesCalibrationFindings();
};

namespace {

// A tensor the sample's plan quantizes whose mse range differs from its entropy range.
const TensorDiagnosis* tensorWithDistinctMse(const ui::ModelDocument& document) {
    if (!document.diagnosis()) return nullptr;
    for (const TensorDiagnosis& t : document.diagnosis()->tensors) {
        if (t.methods.size() != 4) continue;
        float entropy = 0, mse = 0;
        for (const MethodQuality& m : t.methods) {
            if (m.method == CalibrationMethod::Mse) mse = m.amax;
            if (m.method == CalibrationMethod::Entropy) entropy = m.amax;
        }
        if (std::abs(mse - entropy) > 1e-3f * std::max(1.0f, entropy)) return &t;
    }
    return nullptr;
}

float amaxInUse(const ui::ModelDocument& document, const std::string& tensor) {
    const auto amax = activationAmax(*document.calibration(), document.plan());
    return amax ? amax->at(tensor) : -1.0f;
}

// The method line drawn widest: the one in use.
double boldLineX(const QCustomPlot* plot) {
    QCPItemStraightLine* widest = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i)))
            if (!widest || line->pen().widthF() > widest->pen().widthF()) widest = line;
    return widest ? widest->point1->coords().x() : -1.0;
}

QComboBox* methodCombo(const ui::HistogramPlot& plot) {
    for (QComboBox* combo : plot.findChildren<QComboBox*>())
        if (combo->findData(static_cast<int>(CalibrationMethod::Mse)) >= 0) return combo;
    return nullptr;
}

}  // namespace

void TensorMethodTest::overrideIsUndoableAndChangesTheAmaxThePlanUses() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);  // entropy
    const TensorDiagnosis* diagnosis = tensorWithDistinctMse(document);
    QVERIFY(diagnosis);
    const std::string tensor = diagnosis->tensor;
    const TensorRange* range = nullptr;
    for (const TensorRange& r : document.calibration()->activations)
        if (r.name == tensor) range = &r;
    QVERIFY(range && range->amaxByMethod);
    const float entropy = range->amaxByMethod->entropy, mse = range->amaxByMethod->mse;
    QCOMPARE(amaxInUse(document, tensor), entropy);

    ui::HistogramPlot plot;
    plot.setDocument(&document);
    plot.showTensor(QString::fromStdString(tensor));
    QCOMPARE(plot.methodInUse(), CalibrationMethod::Entropy);
    QCOMPARE(boldLineX(plot.customPlot()), static_cast<double>(entropy));
    // Every line of a quantized tensor says how much it clips and what SQNR it is expected to give.
    const QStringList labels = plot.lineLabels();
    QCOMPARE(labels.size(), 4);
    for (const QString& label : labels)
        QVERIFY2(label.contains(QStringLiteral(" clips ")) &&
                     (label.contains(QStringLiteral(" dB")) || label.contains(QStringLiteral("exact"))),
                 qPrintable(label));
    QComboBox* combo = methodCombo(plot);
    QVERIFY(combo && combo->isEnabled());
    QVERIFY(combo->currentText().contains(QStringLiteral("entropy")));  // "the calibration's (entropy)"

    // The user picks mse in the combo: one undo step, the plan's amax and the diagnosis follow.
    QSignalSpy planChanged(&document, &ui::ModelDocument::planChanged);
    QSignalSpy lintChanged(&document, &ui::ModelDocument::lintChanged);
    const int steps = document.undoStack()->count();
    const int mseIndex = combo->findData(static_cast<int>(CalibrationMethod::Mse));
    combo->setCurrentIndex(mseIndex);
    emit combo->activated(mseIndex);
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(planChanged.count(), 1);
    QCOMPARE(lintChanged.count(), 1);
    QCOMPARE(document.plan().tensorMethods().at(tensor), CalibrationMethod::Mse);
    QCOMPARE(amaxInUse(document, tensor), mse);
    const TensorDiagnosis* now = document.diagnosis()->find(tensor);
    QVERIFY(now && now->methodFromPlan);
    QCOMPARE(now->method, CalibrationMethod::Mse);
    QCOMPARE(now->amax, mse);
    QCOMPARE(plot.methodInUse(), CalibrationMethod::Mse);
    QCOMPARE(boldLineX(plot.customPlot()), static_cast<double>(mse));
    QVERIFY(plot.lineLabels().filter(QStringLiteral("\u25B6 mse")).size() == 1);
    QCOMPARE(combo->currentIndex(), mseIndex);

    // Edit > Undo restores the calibration's own range; Redo takes the override again.
    document.undoStack()->undo();
    QVERIFY(document.plan().tensorMethods().empty());
    QCOMPARE(amaxInUse(document, tensor), entropy);
    QCOMPARE(plot.methodInUse(), CalibrationMethod::Entropy);
    QCOMPARE(combo->currentIndex(), 0);
    QVERIFY(!document.diagnosis()->find(tensor)->methodFromPlan);
    document.undoStack()->redo();
    QCOMPARE(amaxInUse(document, tensor), mse);

    // Back to the calibration's own through the panel too; choosing the method in use again is no step.
    plot.chooseMethod(std::nullopt);
    QVERIFY(document.plan().tensorMethods().empty());
    const int after = document.undoStack()->count();
    plot.chooseMethod(std::nullopt);
    QCOMPARE(document.undoStack()->count(), after);
}

void TensorMethodTest::overrideMarksTheAnalysisStale() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    ui::PrecisionTableModel table(&document);
    QAbstractItemModelTester tester(&table);
    ui::LayerErrorPlot layers;
    layers.setDocument(&document);
    QVERIFY(!document.isAnalysisStale() && !layers.isStale());
    const auto header = [&](int column) { return table.headerData(column, Qt::Horizontal).toString(); };
    QCOMPARE(header(ui::PrecisionTableModel::SqnrColumn), QStringLiteral("SQNR"));

    QSignalSpy headerChanged(&table, &QAbstractItemModel::headerDataChanged);
    const TensorDiagnosis* diagnosis = tensorWithDistinctMse(document);
    QVERIFY(diagnosis);
    document.setTensorMethod(QString::fromStdString(diagnosis->tensor), CalibrationMethod::Mse);
    QVERIFY(document.isAnalysisStale());
    QVERIFY(layers.isStale());
    QCOMPARE(headerChanged.count(), 1);
    QVERIFY(header(ui::PrecisionTableModel::SqnrColumn).contains(QStringLiteral("stale")));
    QVERIFY(header(ui::PrecisionTableModel::SensitivityColumn).contains(QStringLiteral("stale")));
    const QModelIndex cell = table.index(0, ui::PrecisionTableModel::SqnrColumn);
    QVERIFY(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("plan changed")));

    // Undo returns to the measured plan: current again.
    document.undoStack()->undo();
    QVERIFY(!document.isAnalysisStale() && !layers.isStale());
    QCOMPARE(header(ui::PrecisionTableModel::SqnrColumn), QStringLiteral("SQNR"));
    // A precision edit makes it stale too.
    document.setRequestedPrecision({0}, Precision::Fp32);
    QVERIFY(document.isAnalysisStale());
}

void TensorMethodTest::replacePlanCarriesTensorMethodsInOneStep() {
    ui::ModelDocument document;
    test::loadSample(document);
    test::calibrateSampleNow(document);
    const PrecisionPlan start = document.plan();
    PrecisionPlan tuned = start;
    const std::string tensor = tensorWithDistinctMse(document)->tensor;
    tuned.setTensorMethod(tensor, CalibrationMethod::Mse);
    tuned.setRequested(0, Precision::Fp16);
    const int steps = document.undoStack()->count();
    document.replacePlan(tuned, QStringLiteral("Apply tuned plan"));
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(document.undoStack()->undoText(), QStringLiteral("Apply tuned plan"));
    QCOMPARE(document.plan().requested(0), Precision::Fp16);
    QCOMPARE(document.plan().tensorMethods(), tuned.tensorMethods());
    document.undoStack()->undo();
    QCOMPARE(document.plan().requested(0), start.requested(0));
    QVERIFY(document.plan().tensorMethods().empty());
    // A plan with nothing new is no step.
    document.replacePlan(start, QStringLiteral("nothing"));
    QCOMPARE(document.undoStack()->index(), steps);
}

void TensorMethodTest::entropyOnASpikyInputGivesCalibrationFindings() {
    // x -> Conv -> Relu; x is mostly in [-1, 1] with 1% spikes of 2 to 110, most of them small: entropy's range cuts
    // the largest off, which costs some 10 dB of expected SQNR against mse's (calib-method-gap).
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4, 8, 8});
    b.initializer("w", {8, 4, 3, 3}, test::seededFloats(8 * 4 * 9, 3, -0.3f, 0.3f));
    b.node("Conv", {"x", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    test::TempDir dir;
    const int64_t samples = 48;
    std::vector<float> values = test::seededFloats(static_cast<size_t>(samples * 4 * 64), 9);
    const std::vector<float> spikes = test::seededFloats(values.size() / 100 + 1, 21, 0.0f, 1.0f);
    for (size_t i = 0; i < values.size(); i += 100)
        values[i] = (values[i] < 0 ? -1.0f : 1.0f) * 2.0f * std::exp(4.0f * spikes[i / 100]);
    const std::string data = dir.file("spiky.npy");
    QVERIFY(writeNpy(data, Tensor::fromVector(DataType::Float, {samples, 4, 8, 8}, values)).isOk());

    ui::MainWindow window;
    ui::ModelDocument* document = window.document();
    document->replaceModel(std::shared_ptr<Model>(b.load()));
    ui::CalibrationRequest request;
    request.data = {{"", data, {}}};
    request.config.method = CalibrationMethod::Entropy;
    request.analyze = false;
    const ui::CalibrationOutcome outcome = ui::runCalibrationJob(*document->model(), document->plan(), request, {}, {});
    QVERIFY2(outcome.status.isOk(), outcome.status.message().c_str());
    QSignalSpy lintChanged(document, &ui::ModelDocument::lintChanged);
    document->setCalibration(outcome.calibration);
    QCOMPARE(lintChanged.count(), 1);

    const Finding* gap = nullptr;
    for (const Finding& f : document->lint().findings)
        if (f.ruleId == "calib-method-gap") gap = &f;
    QVERIFY(gap);
    QCOMPARE(gap->tensor, std::string("x"));
    QCOMPARE(gap->nodeName, std::string("conv"));

    // In the findings dock like any finding; a click shows the tensor's histogram.
    auto* panel =
        qobject_cast<ui::FindingsPanel*>(window.findChild<QDockWidget*>(QStringLiteral("LintDock"))->widget());
    QVERIFY(panel);
    QTreeWidget* tree = panel->tree();
    const qsizetype row = panel->ruleRows().indexOf(QStringLiteral("calib-method-gap"));
    QVERIFY(row >= 0);
    QTreeWidgetItem* item = tree->topLevelItem(static_cast<int>(row))->child(0);  // grouped under its rule
    QVERIFY(item);
    QCOMPARE(item->text(1), QStringLiteral("conv"));
    auto* histogram = window.findChild<ui::HistogramPlot*>();
    histogram->showTensor(QStringLiteral("y"));
    emit tree->itemClicked(item, 1);
    QCOMPARE(histogram->currentTensor(), QStringLiteral("x"));

    // minmax keeps the spikes: with it the finding goes (the rules check the plan's override).
    document->setTensorMethod(QStringLiteral("x"), CalibrationMethod::MinMax);
    for (const Finding& f : document->lint().findings) QVERIFY(f.ruleId != "calib-method-gap");
    document->undoStack()->undo();
    QVERIFY(std::any_of(document->lint().findings.begin(), document->lint().findings.end(),
                        [](const Finding& f) { return f.ruleId == "calib-method-gap"; }));
}

QTEST_MAIN(TensorMethodTest)
#include "tensor_method_test.moc"
