// The background load: a model whose layer shapes ONNX shape inference cannot reach (a Reshape to a computed shape)
// comes to the window with the MACs of the shapes a run sees (issue 27, item 13), measured on the loading thread; a
// big graph's structure comes first (issue 29: the window paints it while inference and the precisions run).
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/support/runtime_shape_model.h"
#include "ui/graph/graph_snapshot.h"
#include "ui/model_document.h"
#include "ui/model_loader.h"

using namespace ql;

class ModelLoaderTest : public QObject {
    Q_OBJECT
private slots:
    void macsComeFromTheShapesARunSees();
    void aBigGraphsStructureComesBeforeTheModel();
    void aSmallGraphComesWithoutAPreview();
    void aSupersededLoadSendsNoPreview();
};

namespace {

// A chain of `count` Relu nodes.
void saveChain(const std::string& path, int count) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    std::string previous = "x";
    for (int i = 0; i < count; ++i) {
        std::string output = "t";  // appended, not "t" + ...: GCC 12 warns wrongly (-Wrestrict) on that form
        output += std::to_string(i);
        b.node("Relu", {previous}, {output}, "relu" + output);
        previous = std::move(output);
    }
    b.output(previous);
    b.save(path);
}

// The signals of one load, in order: "preview N" (N nodes) and "loaded".
struct LoadEvents {
    QStringList events;
    std::shared_ptr<ui::LoadedModel> outcome;
    LoadEvents(ui::ModelLoader& loader, QObject* context) {
        QObject::connect(&loader, &ui::ModelLoader::previewReady, context,
                         [this](const std::shared_ptr<ui::GraphSnapshot>& structure) {
                             events << QStringLiteral("preview %1").arg(structure->nodes.size());
                         });
        QObject::connect(&loader, &ui::ModelLoader::loaded, context,
                         [this](const std::shared_ptr<ui::LoadedModel>& result) {
                             events << QStringLiteral("loaded");
                             outcome = result;
                         });
    }
};

}  // namespace

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

void ModelLoaderTest::aBigGraphsStructureComesBeforeTheModel() {
    test::TempDir dir;
    const int count = static_cast<int>(ui::ModelLoader::kPreviewNodes);
    saveChain(dir.file("big.onnx"), count);
    ui::ModelLoader loader;
    LoadEvents seen(loader, this);
    loader.load(QString::fromStdString(dir.file("big.onnx")), TrtTarget{});
    QVERIFY(QTest::qWaitFor([&] { return seen.outcome != nullptr; }, 30000));
    QVERIFY2(seen.outcome->model, qPrintable(seen.outcome->error));
    QCOMPARE(seen.events, (QStringList{QStringLiteral("preview %1").arg(count), QStringLiteral("loaded")}));
}

void ModelLoaderTest::aSmallGraphComesWithoutAPreview() {
    test::TempDir dir;
    saveChain(dir.file("small.onnx"), static_cast<int>(ui::ModelLoader::kPreviewNodes) - 1);
    ui::ModelLoader loader;
    LoadEvents seen(loader, this);
    loader.load(QString::fromStdString(dir.file("small.onnx")), TrtTarget{});
    QVERIFY(QTest::qWaitFor([&] { return seen.outcome != nullptr; }, 30000));
    QCOMPARE(seen.events, QStringList{QStringLiteral("loaded")});
}

// A request made while a big model loads replaces it: the window must not show the old one's structure meanwhile.
void ModelLoaderTest::aSupersededLoadSendsNoPreview() {
    test::TempDir dir;
    saveChain(dir.file("big.onnx"), static_cast<int>(ui::ModelLoader::kPreviewNodes));
    saveChain(dir.file("small.onnx"), 3);
    ui::ModelLoader loader;
    LoadEvents seen(loader, this);
    loader.load(QString::fromStdString(dir.file("big.onnx")), TrtTarget{});
    loader.load(QString::fromStdString(dir.file("small.onnx")), TrtTarget{});  // before the first one's preview
    QVERIFY(QTest::qWaitFor([&] { return seen.outcome != nullptr; }, 30000));
    QCOMPARE(seen.events, QStringList{QStringLiteral("loaded")});
    QCOMPARE(seen.outcome->model->graph().nodes().size(), size_t{3});
}

QTEST_MAIN(ModelLoaderTest)
#include "model_loader_test.moc"
