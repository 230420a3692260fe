// Issue 29, item 4: the data and preprocessing belong to the model. A new model starts from what its input
// suggests, never from the previous model's settings; a project brings its model's back; the preview pane shows the
// first preprocessed sample (shape, layout, min/max per channel, the picture); a mean of the wrong count is refused
// saying why; the Tune dialog starts from the calibration's evaluation data and labels.
#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/window_test_util.h"
#include "ui/calibration/calibration_controller.h"
#include "ui/calibration/calibration_dialog.h"
#include "ui/calibration/image_preprocess_editor.h"
#include "ui/calibration/preprocess_preview.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/project_controller.h"
#include "ui/tuning/tune_dialog.h"
#include "ui/tuning/tune_settings_widget.h"

using namespace ql;

class DataPerModelTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void eachModelKeepsItsOwnPreprocessing();
    void previewShowsTheFirstPreprocessedSample();
    void aMeanOfTheWrongCountIsRefusedSayingWhy();
    void tuneStartsFromTheCalibrationsEvaluationData();
    void previewBackgroundFollowsAThemeSwitch();
    void aOneChannelInputHasNoChannelOrder();
};

namespace {

using test::openAndWait;

// x `dims` -> Relu -> y, saved as `name` in `dir`.
QString writeReluModel(const test::TempDir& dir, const char* name, const std::vector<int64_t>& dims) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, dims);
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    b.save(dir.file(name));
    return QString::fromStdString(dir.file(name));
}

// A folder with one 8x4 image of colour (200, 100, 50).
QString writeImageFolder(const test::TempDir& dir) {
    const QString folder = QString::fromStdString(dir.file("imgs"));
    QDir().mkpath(folder);
    QImage image(8, 4, QImage::Format_RGB888);
    image.fill(QColor(200, 100, 50));
    image.save(folder + QStringLiteral("/a.png"));
    return folder;
}

ui::CalibrationDialog* openDialog(ui::MainWindow& window) {
    auto* controller = window.findChild<ui::CalibrationController*>();
    return controller && controller->openDialog() ? controller->dialog() : nullptr;
}

bool waitForPreview(ui::CalibrationDialog* dialog) {
    return QTest::qWaitFor([dialog] { return !dialog->preview()->isUpdating(); }, 10000);
}

void noPrompt(ui::MainWindow& window) {
    window.project()->setUnsavedPrompt([] { return ui::ProjectController::UnsavedChoice::Discard; });
}

}  // namespace

void DataPerModelTest::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
    QCoreApplication::setApplicationName(QStringLiteral("data_per_model_test"));
    QSettings().clear();
}

void DataPerModelTest::eachModelKeepsItsOwnPreprocessing() {
    test::TempDir dir;
    const QString a = writeReluModel(dir, "a.onnx", {1, 3, -1, -1});    // a detector of any size
    const QString b = writeReluModel(dir, "b.onnx", {1, 240, 320, 3});  // NHWC, fixed
    const QString images = writeImageFolder(dir);
    const QString project = QString::fromStdString(dir.file("a.qlproj"));
    ui::MainWindow window;
    noPrompt(window);

    QVERIFY(openAndWait(window, a));
    ui::CalibrationDialog* dialog = openDialog(window);
    QVERIFY(dialog);
    QCOMPARE(dialog->preprocessEditor()->value().width, 0);  // A's size is the user's to give
    ImagePreprocess detector = dialog->preprocessEditor()->value();
    detector.width = detector.height = 640;
    dialog->preprocessEditor()->setValue(detector);
    dialog->setDataPath(images);
    dialog->setAnalyze(false);
    dialog->accept();  // keeps the settings with the model, and calibrates
    QVERIFY(QTest::qWaitFor([&] { return window.document()->calibration() != nullptr; }, 30000));
    QVERIFY(window.project()->saveProjectAs(project));

    QVERIFY(openAndWait(window, b));
    dialog = openDialog(window);
    const ImagePreprocess own = dialog->preprocessEditor()->value();
    QCOMPARE(own.width, 320);  // B's own input, not A's 640x640
    QCOMPARE(own.height, 240);
    QCOMPARE(own.layout, ImageLayout::Nhwc);
    QCOMPARE(own.order, ChannelOrder::Rgb);
    QCOMPARE(dialog->dataPath(), QString());
    dialog->reject();

    QVERIFY(openAndWait(window, project));
    dialog = openDialog(window);
    QCOMPARE(dialog->preprocessEditor()->value().width, 640);
    QCOMPARE(dialog->preprocessEditor()->value().height, 640);
    QCOMPARE(dialog->dataPath(), images);
    dialog->reject();
}

void DataPerModelTest::previewShowsTheFirstPreprocessedSample() {
    test::TempDir dir;
    ui::MainWindow window;
    noPrompt(window);
    QVERIFY(openAndWait(window, writeReluModel(dir, "b.onnx", {1, 240, 320, 3})));
    ui::CalibrationDialog* dialog = openDialog(window);
    ImagePreprocess letterbox = dialog->preprocessEditor()->value();
    letterbox.resize = ResizeMode::Letterbox;
    letterbox.padValue = 0.0f;
    dialog->preprocessEditor()->setValue(letterbox);
    dialog->setDataPath(writeImageFolder(dir));
    QVERIFY(waitForPreview(dialog));
    const ui::PreprocessPreview* preview = dialog->preview();
    QCOMPARE(preview->shapeText(), QStringLiteral("[240, 320, 3] (HWC)"));
    QCOMPARE(preview->orderText(), QStringLiteral("R, G, B"));
    // 8x4 becomes 320x160 between two black bands of 40 rows: every channel from 0 (the pad) to the colour.
    QCOMPARE(preview->rangeText(), QStringLiteral("R: 0 .. 0.7843\nG: 0 .. 0.3922\nB: 0 .. 0.1961"));
    QCOMPARE(preview->image().size(), QSize(320, 240));
    QCOMPARE(preview->image().pixelColor(160, 120), QColor(200, 100, 50));
    QCOMPARE(preview->image().pixelColor(160, 10), QColor(0, 0, 0));
    // On screen the picture has the sample's 4:3 shape: no band of the frame beside the letterbox's own.
    QCOMPARE(preview->pictureSize(), QSize(160, 120));

    letterbox.mean = {0.5f};
    letterbox.order = ChannelOrder::Bgr;
    dialog->preprocessEditor()->setValue(letterbox);
    QVERIFY(waitForPreview(dialog));
    QCOMPARE(preview->orderText(), QStringLiteral("B, G, R"));
    QVERIFY2(preview->rangeText().startsWith(QStringLiteral("B: -0.5 .. -0.3039")), qPrintable(preview->rangeText()));
    QCOMPARE(preview->image().pixelColor(160, 120), QColor(200, 100, 50));  // the picture undoes mean and order
    dialog->reject();
}

void DataPerModelTest::aMeanOfTheWrongCountIsRefusedSayingWhy() {
    test::TempDir dir;
    ui::MainWindow window;
    noPrompt(window);
    QVERIFY(openAndWait(window, writeReluModel(dir, "gray.onnx", {1, 1, 8, 8})));
    ui::CalibrationDialog* dialog = openDialog(window);
    dialog->setDataPath(writeImageFolder(dir));
    nlohmann::json settings = dialog->settings();
    settings["preprocess"]["mean"] = "0.485, 0.456, 0.406";  // per channel, on a grayscale input
    dialog->applySettings(settings);
    QVERIFY2(dialog->validate().contains(QStringLiteral("the mean has 3 values but the model input has 1 channel; "
                                                        "give one value")),
             qPrintable(dialog->validate()));
    QVERIFY(waitForPreview(dialog));
    QVERIFY2(dialog->preview()->messageText().contains(QStringLiteral("the mean has 3 values")),
             qPrintable(dialog->preview()->messageText()));
    QVERIFY(dialog->preview()->shapeText().isEmpty());
    QCOMPARE(dialog->preview()->pictureSize(), QSize(160, 160));  // no sample: the empty square frame

    settings["preprocess"]["mean"] = "0.5";  // one value: every channel
    dialog->applySettings(settings);
    QCOMPARE(dialog->validate(), QString());
    QVERIFY(waitForPreview(dialog));
    QCOMPARE(dialog->preview()->shapeText(), QStringLiteral("[1, 8, 8] (CHW)"));
    QCOMPARE(dialog->preview()->orderText(), QStringLiteral("gray"));
    dialog->reject();
}

void DataPerModelTest::tuneStartsFromTheCalibrationsEvaluationData() {
    test::TempDir dir;
    const QString images = writeImageFolder(dir);
    const QString labels = QString::fromStdString(dir.file("labels.npy"));
    ui::MainWindow window;
    noPrompt(window);
    QVERIFY(openAndWait(window, writeReluModel(dir, "m.onnx", {1, 3, 4, 4})));
    ui::CalibrationDialog* dialog = openDialog(window);
    dialog->setDataPath(images);
    dialog->setEvaluationPath(images);
    dialog->setLabelsPath(labels);
    dialog->setAnalyze(false);
    dialog->accept();
    QVERIFY(QTest::qWaitFor([&] { return window.document()->calibration() != nullptr; }, 30000));

    ui::TuneDialog tune(window.document());
    const ui::TuneRequest request = tune.settings()->request();
    QCOMPARE(request.data.size(), size_t{1});
    QCOMPARE(QString::fromStdString(request.data[0].path), images);
    QCOMPARE(QString::fromStdString(request.labelsPath), labels);
    QCOMPARE(request.data[0].image.width, 4);  // the calibration's preprocessing, this model's defaults
}

// The picture's empty background is the palette's Mid of the theme shown, also after View > Theme switches it.
void DataPerModelTest::previewBackgroundFollowsAThemeSwitch() {
    ui::PreprocessPreview preview;
    preview.setVisible(true);  // its own show() shows a sample
    QVERIFY(QTest::qWaitForWindowExposed(&preview));
    const QPalette before = QApplication::palette();
    QPalette switched = before;
    switched.setColor(QPalette::Mid, QColor(200, 30, 40));
    QApplication::setPalette(switched);
    QCoreApplication::processEvents();
    const QLabel* picture = nullptr;
    for (const QLabel* label : preview.findChildren<QLabel*>())
        if (label->minimumSize() == label->maximumSize()) picture = label;  // the fixed-size picture
    QVERIFY(picture);
    const QImage shot = preview.grab().toImage();
    const QPoint corner = picture->geometry().topLeft() + QPoint(2, 2);
    QCOMPARE(shot.pixelColor(corner), QColor(200, 30, 40));
    QApplication::setPalette(before);
}

// The digits model reads one channel: the editor offered RGB/BGR while the preview said "gray" (walk).
void DataPerModelTest::aOneChannelInputHasNoChannelOrder() {
    ui::ImagePreprocessEditor editor;
    auto* order = editor.findChild<QComboBox*>(QStringLiteral("channelOrder"));
    QVERIFY(order);
    editor.setChannels(1);
    QVERIFY(!order->isEnabled());
    QVERIFY(order->toolTip().contains(QStringLiteral("gray")));
    editor.setChannels(3);
    QVERIFY(order->isEnabled());
}

QTEST_MAIN(DataPerModelTest)
#include "data_per_model_test.moc"
