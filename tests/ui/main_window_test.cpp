// The first window: opening a model lists its nodes, the title names the file, drops open files,
// bad files are reported without blocking.
#include <QMimeData>
#include <QSignalSpy>
#include <QTableView>
#include <QUrl>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/window_test_util.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"

using namespace ql;

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void opensTheSampleModelAndListsEveryNode();
    void droppedOnnxFileOpens();
    void nonOnnxDropIsIgnored();
    void badFileIsReportedAndPreviousModelStays();
};

namespace {

using test::openAndWait;

QString sampleModel() {
    return QStringLiteral(QL_SOURCE_DIR "/resources/samples/digits_cnn.onnx");
}

}  // namespace

void MainWindowTest::opensTheSampleModelAndListsEveryNode() {
    ui::MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, sampleModel()));
    QCOMPARE(window.windowTitle().remove(QStringLiteral("[*]")), QStringLiteral("digits_cnn.onnx - QuantLens"));
    auto* table = window.findChild<QTableView*>();
    QVERIFY(table);
    QCOMPARE(static_cast<size_t>(table->model()->rowCount()), window.document()->model()->graph().nodes().size());
    QVERIFY(table->model()->rowCount() > 10);
    QCOMPARE(table->model()->index(0, 2).data().toString(), QStringLiteral("Conv"));

    // The graph: one box per node (the sample has no Q/DQ to fold), plus its input and output.
    auto* view = window.findChild<ui::GraphView*>();
    QVERIFY(view);
    QVERIFY(
        QTest::qWaitFor([&] { return view->graphScene()->layout() && !view->graphScene()->isLayoutPending(); }, 30000));
    const Graph& graph = window.document()->model()->graph();
    int operators = 0;
    for (const ui::GraphNodeItem* item : view->graphScene()->nodeItems())
        operators += item->kind() == ui::VisibleKind::Operator ? 1 : 0;
    QCOMPARE(static_cast<size_t>(operators), graph.nodes().size());
    QCOMPARE(view->graphScene()->nodeItems().size(),
             graph.nodes().size() + graph.inputs().size() + graph.outputs().size());
}

void MainWindowTest::droppedOnnxFileOpens() {
    ui::MainWindow window;
    window.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(sampleModel())});
    QCOMPARE(ui::onnxPathFromMime(&mime), sampleModel());
    QSignalSpy opened(&window, &ui::MainWindow::modelOpened);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    // Deliver straight to the window's handler: QApplication::notify only routes drops that come from a real
    // drag session.
    static_cast<QObject*>(&window)->event(&drop);
    QVERIFY(QTest::qWaitFor([&] { return opened.count() == 1; }, 10000));
    QCOMPARE(window.document()->fileName(), QStringLiteral("digits_cnn.onnx"));
}

void MainWindowTest::nonOnnxDropIsIgnored() {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/picture.png"))});
    QVERIFY(ui::onnxPathFromMime(&mime).isEmpty());
    QMimeData text;
    text.setText(QStringLiteral("hello"));
    QVERIFY(ui::onnxPathFromMime(&text).isEmpty());
}

void MainWindowTest::badFileIsReportedAndPreviousModelStays() {
    ui::MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, sampleModel()));
    test::TempDir dir;
    test::writeFile(dir.file("broken.onnx"), "not a model at all");
    QSignalSpy failed(&window, &ui::MainWindow::modelFailedToOpen);
    window.openModel(QString::fromStdString(dir.file("broken.onnx")));
    QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, 10000));
    QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("broken.onnx")));
    QCOMPARE(window.document()->fileName(), QStringLiteral("digits_cnn.onnx"));
}

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
