// The background load: a model whose layer shapes ONNX shape inference cannot reach (a Reshape to a computed shape)
// comes to the window with the MACs of the shapes a run sees (issue 27, item 13), measured on the loading thread.
#include <QtTest>

#include "tests/support/runtime_shape_model.h"
#include "ui/model_document.h"
#include "ui/model_loader.h"

using namespace ql;

class ModelLoaderTest : public QObject {
    Q_OBJECT
private slots:
    void macsComeFromTheShapesARunSees();
};

void ModelLoaderTest::macsComeFromTheShapesARunSees() {
    test::TempDir dir;
    test::runtimeShapeModel().save(dir.file("m.onnx"));
    ui::ModelLoader loader;
    std::shared_ptr<ui::LoadedModel> outcome;
    connect(&loader, &ui::ModelLoader::loaded, this,
            [&](const std::shared_ptr<ui::LoadedModel>& result) { outcome = result; });
    loader.load(QString::fromStdString(dir.file("m.onnx")), TrtTarget{});
    QVERIFY(QTest::qWaitFor([&] { return outcome != nullptr; }, 20000));
    QVERIFY2(outcome->model, qPrintable(outcome->error));
    const Graph& graph = outcome->model->graph();
    const LayerCost& conv2 = graph.node(*graph.findNode("conv2")).cost;
    QCOMPARE(conv2.macs, test::kRuntimeShapeConv2Macs);
    QVERIFY(!conv2.approximate);
}

QTEST_MAIN(ModelLoaderTest)
#include "model_loader_test.moc"
