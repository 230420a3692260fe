// File > Import > Fit GPU Profile to the Engine Report...: enabled once a report with a profile is imported, the fit
// runs off the GUI thread and the fitted profile becomes the document's (the one later predictions and the project
// use), with its quality said in the status bar.
#include <QAction>
#include <QSignalSpy>
#include <QtTest>

#include "tests/ui/engine/engine_test_support.h"
#include "ui/engine/gpu_fit_controller.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;

class GpuFitTest : public QObject {
    Q_OBJECT
private slots:
    void fitsTheDocumentsProfileToTheImportedReport();
};

void GpuFitTest::fitsTheDocumentsProfileToTheImportedReport() {
    ui::MainWindow window;
    window.show();
    QVERIFY(test::openSampleAndWait(window));
    auto* fit = window.findChild<ui::GpuFitController*>();
    QVERIFY(fit);
    QVERIFY(!fit->action()->isEnabled());  // no engine report yet
    QVERIFY(!fit->fitFor(QStringLiteral("t4")));
    QVERIFY(test::importEngineAndWait(window));
    QVERIFY(fit->action()->isEnabled());
    QVERIFY(!window.document()->gpuProfile());

    QSignalSpy done(fit, &ui::GpuFitController::fitted);
    QSignalSpy messages(fit, &ui::GpuFitController::message);
    QSignalSpy profileChanged(window.document(), &ui::ModelDocument::gpuProfileChanged);
    QVERIFY(fit->fitFor(QStringLiteral("rtx3060-laptop")));
    QVERIFY(QTest::qWaitFor([&] { return !done.isEmpty(); }, 30000));
    QVERIFY(done.first().first().toBool());
    const auto profile = window.document()->gpuProfile();
    QVERIFY(profile);
    QCOMPARE(QString::fromStdString(profile->gpu.name), QStringLiteral("rtx3060-laptop"));
    QVERIFY(profile->fit);
    QVERIFY(profile->fit->layers > 0);
    QCOMPARE(profileChanged.count(), 1);
    QVERIFY(window.document()->isModified());  // the project keeps it: Save writes it
    QVERIFY(messages.last().first().toString().contains(QStringLiteral("profile fitted to")));
}

QTEST_MAIN(GpuFitTest)
#include "gpu_fit_test.moc"
