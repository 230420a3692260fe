// File > Import > A/B Builds Folder... (issue 28, item 5, in the window): the builds a `quantize --ab-scripts` folder
// holds once its scripts ran fit the document's GPU profile (the manifest's GPU) off the GUI thread, the report says
// which A/B predictions were right, and a folder that is not one says why without touching the profile.
#include <QAction>
#include <QSignalSpy>
#include <QtTest>

#include "tests/cli/ab_builds_fixture.h"
#include "tests/ui/engine/engine_test_support.h"
#include "ui/engine/ab_import_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;

class AbImportTest : public QObject {
    Q_OBJECT
private slots:
    void theBuildsFitTheProfileAndSayWhichPredictionsWereRight();
    void aFolderWithoutAManifestSaysSo();
};

void AbImportTest::theBuildsFitTheProfileAndSayWhichPredictionsWereRight() {
    test::TempDir dir;
    const std::string ab = test::writeAbBuilds(dir, "10");
    QVERIFY(!ab.empty());
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    auto* importer = window.findChild<ui::AbImportController*>();
    QVERIFY(importer);
    QVERIFY(importer->action()->isEnabled());
    QVERIFY(!window.document()->gpuProfile());
    QSignalSpy done(importer, &ui::AbImportController::imported);
    QVERIFY(importer->importFolder(QString::fromStdString(ab)));
    QVERIFY(!importer->importFolder(QString::fromStdString(ab)));  // one at a time
    QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 60000));
    QVERIFY2(done.first().first().toBool(), qPrintable(importer->lastReport()));
    const auto profile = window.document()->gpuProfile();
    QVERIFY(profile && profile->fit);
    QCOMPARE(QString::fromStdString(profile->gpu.name), QStringLiteral("rtx3060-laptop"));
    QVERIFY(profile->fit->reports.size() >= 2);  // the plan and all-FP16, at least
    QVERIFY2(importer->lastReport().contains(QStringLiteral("plan vs fp16")), qPrintable(importer->lastReport()));
    QVERIFY(importer->lastReport().contains(QStringLiteral("rank correlation")));
}

void AbImportTest::aFolderWithoutAManifestSaysSo() {
    test::TempDir dir;
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    auto* importer = window.findChild<ui::AbImportController*>();
    QSignalSpy done(importer, &ui::AbImportController::imported);
    QVERIFY(importer->importFolder(QString::fromStdString(dir.path())));
    QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 30000));
    QVERIFY(!done.first().first().toBool());
    QVERIFY2(importer->lastReport().contains(QStringLiteral("ab-scripts.json")), qPrintable(importer->lastReport()));
    QVERIFY(!window.document()->gpuProfile());
}

QTEST_MAIN(AbImportTest)
#include "ab_import_test.moc"
