// File > Export for a model with dynamic inputs: the shapes dialog is prefilled from the calibration, refuses what
// `quantize --shapes` refuses, and the export writes the profile (or says which input has none).
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "core/export/effective_plan.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"
#include "ui/export_job.h"
#include "ui/export_shapes_dialog.h"

using namespace ql;

class ExportShapesDialogTest : public QObject {
    Q_OBJECT
private slots:
    void fieldsArePrefilledFromTheCalibration();
    void badShapesKeepTheDialogOpenWithTheReason();
    void theExportWritesTheDialogsShapesOrSaysWhichInputHasNone();
};

namespace {

std::shared_ptr<const Model> dynamicModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

const std::vector<InputShapeRange> kCalibrated = {{"x", {2, 3, 6, 6}, {8, 3, 6, 6}, {8, 3, 6, 6}}};

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

void ExportShapesDialogTest::fieldsArePrefilledFromTheCalibration() {
    auto model = dynamicModel();
    auto shapes = trtexecShapes(model->graph(), kCalibrated, {});
    QVERIFY(shapes);
    ui::ExportShapesDialog dialog(model->graph(), *shapes);
    QLineEdit* field = dialog.field(QStringLiteral("x"));
    QVERIFY(field);
    QCOMPARE(field->text(), QStringLiteral("1x3x6x6:8x3x6x6:8x3x6x6"));
    QCOMPARE(field->placeholderText(), QStringLiteral("Nx3x6x6"));
    auto unchanged = dialog.shapes();  // the export takes the calibration's itself, and says where they come from
    QVERIFY(unchanged && unchanged->empty());
    auto none = trtexecShapes(model->graph(), {}, {});
    ui::ExportShapesDialog empty(model->graph(), *none);
    QVERIFY(empty.field(QStringLiteral("x"))->text().isEmpty());
    auto given = empty.shapes();
    QVERIFY(given && given->empty());
}

void ExportShapesDialogTest::badShapesKeepTheDialogOpenWithTheReason() {
    auto model = dynamicModel();
    auto shapes = trtexecShapes(model->graph(), kCalibrated, {});
    ui::ExportShapesDialog dialog(model->graph(), *shapes);
    dialog.field(QStringLiteral("x"))->setText(QStringLiteral("1x4x6x6"));
    dialog.show();
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QVERIFY2(dialog.errorText().contains(QStringLiteral("dimension 1 is fixed at 3")), qPrintable(dialog.errorText()));
    dialog.field(QStringLiteral("x"))->setText(QStringLiteral(" 4x3x6x6 "));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    auto given = dialog.shapes();
    QVERIFY(given && given->size() == 1);
    QVERIFY(given->front().min == (Shape{4, 3, 6, 6}));
    QVERIFY(given->front().max == (Shape{4, 3, 6, 6}));
}

void ExportShapesDialogTest::theExportWritesTheDialogsShapesOrSaysWhichInputHasNone() {
    test::TempDir dir;
    auto model = dynamicModel();
    auto calibration = std::make_shared<CalibrationResult>(test::uniformCalibration(model->graph()));
    const TrtTarget target{TrtVersion::Trt10, TrtTyping::Strong};
    ui::ExportJob job{.model = model,
                      .plan = effectivePlan(model->graph(), PrecisionPlan(model->graph(), Precision::Int8),
                                            target.version, Precision::Fp16, calibration.get()),
                      .calibration = calibration,
                      .target = target,
                      .modelPath = QString::fromStdString(dir.file("q.onnx")),
                      .shapes = {{"x", {1, 3, 6, 6}, {4, 3, 6, 6}, {16, 3, 6, 6}}}};
    QString message = ui::runExport(job);
    QVERIFY2(!message.startsWith(QStringLiteral("error")), qPrintable(message));
    const std::string script = readText(dir.file("q.trtexec.sh"));
    QVERIFY2(script.find("--minShapes=x:1x3x6x6 --optShapes=x:4x3x6x6 --maxShapes=x:16x3x6x6") != std::string::npos,
             script.c_str());
    QVERIFY2(!message.contains(QStringLiteral("Warning")), qPrintable(message));
    job.shapes.clear();  // and the calibration has none: a file from before input_shapes, or a TensorRT cache
    message = ui::runExport(job);
    QVERIFY2(message.contains(QStringLiteral("Warning: input 'x' [N,3,6,6] has dynamic dimensions")),
             qPrintable(message));
    calibration->inputShapes = kCalibrated;
    message = ui::runExport(job);
    QVERIFY2(
        readText(dir.file("q.trtexec.sh")).find("--minShapes=x:1x3x6x6 --optShapes=x:8x3x6x6") != std::string::npos,
        readText(dir.file("q.trtexec.sh")).c_str());
}

QTEST_MAIN(ExportShapesDialogTest)
#include "export_shapes_dialog_test.moc"
