// The node properties panel: selecting a Conv of the sample in the graph shows its attributes, inputs and
// outputs with shapes, a weight summary with a histogram, its precision and its findings; plan edits refresh
// it; rows copy as text. Attribute values of every kind read as text.
#include <onnx/onnx_pb.h>
#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/panels/node_details.h"
#include "ui/panels/node_properties_panel.h"

using namespace ql;
using namespace ql::ui;
using ql::test::rowValue;

class NodePropertiesTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheConvOfTheSample();
    void planEditRefreshesThePrecision();
    void selectedRowsCopyAsText();
    void attributeValuesReadAsText();
    void weightSummaryCountsEveryValue();
    void aLongNameLeavesTheValuesHalfTheWidth();
};

namespace {

QTreeWidgetItem* sectionItem(const QTreeWidget* tree, const QString& section) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0).startsWith(section)) return tree->topLevelItem(i);
    return nullptr;
}

struct Fixture {
    MainWindow window;
    NodePropertiesPanel* panel = nullptr;
    GraphView* view = nullptr;

    bool open() {
        window.show();
        if (!test::openAndWaitForLayout(window, test::sampleModelPath())) return false;
        panel = window.findChild<NodePropertiesPanel*>();
        view = window.findChild<GraphView*>();
        return panel && view;
    }
    NodeId select(const std::string& name) {
        const NodeId node = *window.document()->model()->graph().findNode(name);
        view->selectNode(node);
        return node;
    }
};

}  // namespace

void NodePropertiesTest::showsTheConvOfTheSample() {
    Fixture f;
    QVERIFY(f.open());
    QSignalSpy summarized(f.panel, &NodePropertiesPanel::weightsSummarized);
    const NodeId conv = f.select("/stem/stem.0/Conv");
    QCOMPARE(f.panel->node(), conv);
    const QTreeWidget* tree = f.panel->tree();
    QCOMPARE(rowValue(tree, QStringLiteral("Node"), QStringLiteral("Op")), QStringLiteral("Conv"));
    QCOMPARE(rowValue(tree, QStringLiteral("Node"), QStringLiteral("Domain")), QStringLiteral("ai.onnx (opset 13)"));
    QCOMPARE(sectionItem(tree, QStringLiteral("Attributes"))->childCount(), 5);
    QCOMPARE(rowValue(tree, QStringLiteral("Attributes"), QStringLiteral("kernel_shape")), QStringLiteral("[3, 3]"));
    QCOMPARE(rowValue(tree, QStringLiteral("Attributes"), QStringLiteral("pads")), QStringLiteral("[1, 1, 1, 1]"));
    QCOMPARE(rowValue(tree, QStringLiteral("Attributes"), QStringLiteral("group")), QStringLiteral("1"));
    QCOMPARE(rowValue(tree, QStringLiteral("Inputs"), QStringLiteral("X")),
             QStringLiteral("image: FLOAT [batch,1,16,16] (graph input)"));
    QVERIFY(rowValue(tree, QStringLiteral("Inputs"), QStringLiteral("W"))
                .startsWith(QStringLiteral("onnx::Conv_53: FLOAT [16,1,3,3]")));
    QCOMPARE(rowValue(tree, QStringLiteral("Outputs"), QStringLiteral("Y")),
             QStringLiteral("/stem/stem.0/Conv_output_0: FLOAT [batch,16,16,16]"));
    QCOMPARE(rowValue(tree, QStringLiteral("Precision"), QStringLiteral("Requested")), QStringLiteral("INT8"));
    QCOMPARE(rowValue(tree, QStringLiteral("Precision"), QStringLiteral("Effective")), QStringLiteral("INT8"));
    // The stem conv reads the image's one channel: the first layer is exempt from the channel alignment rule (NVIDIA's
    // placement quantizes it anyway), so it has no findings.
    QVERIFY(!sectionItem(tree, QStringLiteral("TensorRT findings")));

    QVERIFY(QTest::qWaitFor([&] { return f.panel->weightsReady(); }, 10000));
    QVERIFY(summarized.count() >= 1);
    QCOMPARE(f.panel->weights().size(), size_t{2});  // weight and bias
    const WeightSummary& w = f.panel->weights()[0];
    QCOMPARE(w.name, QStringLiteral("onnx::Conv_53"));
    QCOMPARE(w.count, int64_t{144});
    QCOMPARE(w.shape, QStringLiteral("[16,1,3,3]"));
    QVERIFY(w.min < w.mean && w.mean < w.max && w.std > 0);
    QTreeWidgetItem* weights = sectionItem(tree, QStringLiteral("Weights"));
    QVERIFY(weights);
    QCOMPARE(weights->child(0)->text(0), QStringLiteral("onnx::Conv_53"));
    QCOMPARE(weights->child(0)->child(0)->text(1), QStringLiteral("144"));
    QCPBars* bars = qobject_cast<QCPBars*>(f.panel->histogramPlot()->plottable(0));
    QVERIFY(bars);
    QCOMPARE(bars->data()->size(), static_cast<int>(w.bins.size()));
    QVERIFY(f.panel->histogramPlot()->isVisibleTo(f.panel));

    // A node without constant inputs has no weight section and no plot.
    f.select("/stem/stem.2/Relu");
    QVERIFY(f.panel->weightsReady());
    QVERIFY(!sectionItem(f.panel->tree(), QStringLiteral("Weights")));
    QVERIFY(!f.panel->histogramPlot()->isVisibleTo(f.panel));
    QCOMPARE(rowValue(f.panel->tree(), QStringLiteral("Attributes"), QStringLiteral("(none)")).isEmpty(), false);

    // The head Gemm writes 10 classes (not a multiple of 16): the lint finding and its fix are listed.
    f.select("/head/Gemm");
    QTreeWidgetItem* findings = sectionItem(f.panel->tree(), QStringLiteral("TensorRT findings"));
    QVERIFY(findings);
    QCOMPARE(findings->child(0)->child(0)->text(0), QStringLiteral("Fix"));
    QVERIFY(!findings->child(0)->child(0)->text(1).isEmpty());
}

void NodePropertiesTest::planEditRefreshesThePrecision() {
    Fixture f;
    QVERIFY(f.open());
    const NodeId gemm = f.select("/head/Gemm");
    f.window.document()->setRequestedPrecision({gemm}, Precision::Fp16);
    QCOMPARE(rowValue(f.panel->tree(), QStringLiteral("Precision"), QStringLiteral("Requested")),
             QStringLiteral("FP16"));
    QCOMPARE(rowValue(f.panel->tree(), QStringLiteral("Attributes"), QStringLiteral("transB")), QStringLiteral("1"));
    QCOMPARE(rowValue(f.panel->tree(), QStringLiteral("Attributes"), QStringLiteral("alpha")), QStringLiteral("1"));
}

void NodePropertiesTest::selectedRowsCopyAsText() {
    Fixture f;
    QVERIFY(f.open());
    f.select("/down/down.0/Conv");
    QTreeWidgetItem* attributes = sectionItem(f.panel->tree(), QStringLiteral("Attributes"));
    for (int i = 0; i < attributes->childCount(); ++i)
        if (attributes->child(i)->text(0) == QStringLiteral("strides")) attributes->child(i)->setSelected(true);
    QCOMPARE(f.panel->selectedText(), QStringLiteral("strides: [2, 2]"));
}

void NodePropertiesTest::attributeValuesReadAsText() {
    onnx::AttributeProto a;
    a.set_type(onnx::AttributeProto::FLOAT);
    a.set_f(0.0001f);
    QCOMPARE(attributeText(a), QStringLiteral("0.0001"));
    a.Clear();
    a.set_type(onnx::AttributeProto::STRING);
    a.set_s("SAME_UPPER");
    QCOMPARE(attributeText(a), QStringLiteral("\"SAME_UPPER\""));
    a.Clear();
    a.set_type(onnx::AttributeProto::INTS);
    for (int i = 0; i < 20; ++i) a.add_ints(i);
    QCOMPARE(attributeText(a, 3), QStringLiteral("[0, 1, 2, ... (20 values)]"));
    a.Clear();
    a.set_type(onnx::AttributeProto::TENSOR);
    *a.mutable_t() = test::makeTensor("value", DataType::Float, {2}, {0.5, 1.0});
    QCOMPARE(attributeText(a), QStringLiteral("tensor FLOAT [2]: [0.5, 1]"));
    a.Clear();
    a.set_type(onnx::AttributeProto::GRAPH);
    a.mutable_g()->set_name("body");
    a.mutable_g()->add_node()->set_op_type("Relu");
    QCOMPARE(attributeText(a), QStringLiteral("graph 'body' (1 nodes)"));
    a.Clear();
    a.set_type(onnx::AttributeProto::STRINGS);
    // Moved in: GCC 12 reports a false -Wrestrict on add_strings(const char*) at -O3.
    a.add_strings(std::string("alpha"));
    a.add_strings(std::string("beta"));
    QCOMPARE(attributeText(a), QStringLiteral("[\"alpha\", \"beta\"]"));
}

void NodePropertiesTest::weightSummaryCountsEveryValue() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer("w", {4, 2}, {-1.0f, 0.0f, 0.5f, 1.0f, 1.0f, 2.0f, 3.0f, 3.0f});
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y");
    auto model = b.load();
    const Graph& graph = model->graph();
    const WeightSummary s = summarizeWeight(graph, *graph.findValue("w"), 4);
    QCOMPARE(s.count, int64_t{8});
    QCOMPARE(s.min, -1.0);
    QCOMPARE(s.max, 3.0);
    QCOMPARE(s.mean, 1.1875);
    QCOMPARE(s.bins, (std::vector<int64_t>{1, 2, 2, 3}));  // bins of width 1 from -1; the max goes in the last
    QCOMPARE(formalInputName(graph, graph.node(0), 1), QStringLiteral("B"));
    QCOMPARE(constantInputs(graph, graph.node(0)), std::vector<ValueId>{*graph.findValue("w")});
}

// A body's weights have long names ("If_0_then_branch__Inline_0__stft.forward_basis_buffer"): sized to them, the
// first column took the panel and left the values a few letters wide (a walk on Silero VAD).
void NodePropertiesTest::aLongNameLeavesTheValuesHalfTheWidth() {
    const std::string weight(120, 'w');
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer(weight, {4, 2}, test::seededFloats(8));
    b.node("MatMul", {"x", weight}, {"y"}, "fc");
    b.output("y");
    ModelDocument document;
    document.replaceModel(std::shared_ptr<Model>(b.load()));
    NodePropertiesPanel panel(&document);
    panel.resize(360, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.showNode(*document.model()->graph().findNode("fc"));
    QTreeWidget* tree = panel.tree();
    QTRY_VERIFY(sectionItem(tree, QStringLiteral("Weights")) &&
                sectionItem(tree, QStringLiteral("Weights"))->child(0)->text(0) == QString::fromStdString(weight));
    QApplication::processEvents();
    QVERIFY2(tree->columnWidth(0) <= tree->viewport()->width() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(tree->columnWidth(0)).arg(tree->viewport()->width())));
}

QTEST_MAIN(NodePropertiesTest)
#include "node_properties_test.moc"
