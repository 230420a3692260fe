// A big model's structure is shown while it loads (ModelLoader::previewReady, issue 29): pan and zoom only, no
// selection (its nodes are not the document's yet); the loaded model replaces it, and a failed load goes back to
// the model the document holds.
#include <QScrollBar>
#include <QtTest>

#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_node_item.h"
#include "ui/graph/graph_snapshot.h"
#include "ui/graph/graph_view.h"
#include "ui/model_document.h"

using namespace ql;
using namespace ql::ui;

class GraphPreviewTest : public QObject {
    Q_OBJECT
private slots:
    void thePreviewIsShownButNotInteractive();
    void theLoadedModelReplacesThePreview();
    void aFailedLoadGoesBackToTheDocumentsGraph();
    void aFailedLoadWithNoModelOpenClearsThePreview();
    void theLoadedModelTakesItsTypesIntoThePreviewsStructure();
    void theViewStaysWhereTheUserTookThePreview();
};

namespace {

bool waitForLayout(GraphView& view) {
    return QTest::qWaitFor([&] { return view.graphScene()->layout() && !view.graphScene()->isLayoutPending(); }, 60000);
}

size_t countOperators(const GraphScene& scene) {
    size_t count = 0;
    for (const GraphNodeItem* item : scene.nodeItems()) count += item->kind() == VisibleKind::Operator ? 1 : 0;
    return count;
}

std::shared_ptr<GraphSnapshot> structureOf(const Model& model) {
    return std::make_shared<GraphSnapshot>(GraphSnapshot::from(model.graph()));
}

}  // namespace

void GraphPreviewTest::thePreviewIsShownButNotInteractive() {
    const auto loading = test::chainModel(40);
    GraphView view;
    view.showPreview(structureOf(*loading));
    QVERIFY(waitForLayout(view));
    QVERIFY(view.isPreview());
    QVERIFY(!view.isInteractive());
    QCOMPARE(view.graphScene()->snapshot().nodes.size(), size_t{40});
    QCOMPARE(countOperators(*view.graphScene()), size_t{40});
}

void GraphPreviewTest::theLoadedModelReplacesThePreview() {
    ModelDocument document;
    GraphView view;
    view.setDocument(&document);
    const auto structure = structureOf(*test::chainModel(40));
    view.showPreview(structure);
    QVERIFY(waitForLayout(view));
    document.replaceModel(std::shared_ptr<Model>(test::chainModel(40)));
    QVERIFY(waitForLayout(view));
    QVERIFY(!view.isPreview());
    QVERIFY(view.isInteractive());
    QCOMPARE(countOperators(*view.graphScene()), size_t{40});
}

void GraphPreviewTest::aFailedLoadGoesBackToTheDocumentsGraph() {
    ModelDocument document;
    GraphView view;
    view.setDocument(&document);
    document.replaceModel(std::shared_ptr<Model>(test::quantizedConvModel()));
    QVERIFY(waitForLayout(view));
    const size_t openBoxes = view.graphScene()->nodeItems().size();
    view.showPreview(structureOf(*test::chainModel(40)));
    QVERIFY(waitForLayout(view));
    QCOMPARE(countOperators(*view.graphScene()), size_t{40});
    view.endPreview();
    QVERIFY(waitForLayout(view));
    QVERIFY(!view.isPreview());
    QVERIFY(view.isInteractive());
    QCOMPARE(view.graphScene()->nodeItems().size(), openBoxes);
    QCOMPARE(view.graphScene()->snapshot().nodes.size(), document.model()->graph().nodes().size());
}

void GraphPreviewTest::aFailedLoadWithNoModelOpenClearsThePreview() {
    ModelDocument document;
    GraphView view;
    view.setDocument(&document);
    view.showPreview(structureOf(*test::chainModel(40)));
    QVERIFY(waitForLayout(view));
    view.endPreview();
    QVERIFY(!view.graphScene()->hasGraph());
    QVERIFY(view.graphScene()->items().isEmpty());
    QVERIFY(view.isInteractive());
}

void GraphPreviewTest::theLoadedModelTakesItsTypesIntoThePreviewsStructure() {
    const auto model = test::chainModel(40);
    const GraphSnapshot loaded = GraphSnapshot::from(model->graph());
    GraphSnapshot preview = loaded;
    for (SnapshotValue& value : preview.values) value.typeText.clear();  // before shape inference
    QVERIFY(preview.takeTypes(model->graph()));
    for (size_t v = 0; v < loaded.values.size(); ++v) QCOMPARE(preview.values[v].typeText, loaded.values[v].typeText);
    GraphSnapshot other = GraphSnapshot::from(test::chainModel(41)->graph());
    QVERIFY(!other.takeTypes(model->graph()));  // another structure: built anew
}

void GraphPreviewTest::theViewStaysWhereTheUserTookThePreview() {
    ModelDocument document;
    GraphView view;
    view.resize(600, 400);
    view.show();
    view.setDocument(&document);
    view.showPreview(structureOf(*test::chainModel(60)));
    QVERIFY(waitForLayout(view));
    view.setTransform(QTransform::fromScale(2.0, 2.0));
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    const int scrolled = view.verticalScrollBar()->value();
    document.replaceModel(std::shared_ptr<Model>(test::chainModel(60)));
    QVERIFY(waitForLayout(view));
    QVERIFY(!view.isPreview());
    QCOMPARE(view.transform().m11(), 2.0);
    QCOMPARE(view.verticalScrollBar()->value(), scrolled);
}

QTEST_MAIN(GraphPreviewTest)
#include "graph_preview_test.moc"
