// Issue 18, item 9 (file dialogs): they start in the open project's or model's folder, never the process's.
#include <QDir>
#include <QStandardPaths>
#include <QtTest>

#include "tests/ui/calibration/calibration_test_support.h"
#include "ui/dialog_folder.h"
#include "ui/model_document.h"

using namespace ql;

class DialogFolderTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("QuantLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("dialog_folder_test"));
    }

    void dialogsStartInTheModelsFolder() {
        ui::ModelDocument document;
        QVERIFY(ui::dialogFolder(&document) != QDir::currentPath());
        test::loadSample(document);
        QCOMPARE(ui::dialogFolder(&document), QStringLiteral(QL_SOURCE_DIR "/resources/samples"));
        document.setProjectPath(QStringLiteral("/tmp/somewhere/work.qlproj"));
        QCOMPARE(ui::dialogFolder(&document), QStringLiteral("/tmp/somewhere"));
    }
};

QTEST_MAIN(DialogFolderTest)
#include "dialog_folder_test.moc"
