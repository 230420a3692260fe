// An edit of a big graph is checked against TensorRT's rules and linted off the GUI thread (a second per edit at
// 100k nodes held the window up): the requested precision shows at once, the effective ones and the findings when
// the relint is done, and whatever reads plan() or lint() meanwhile waits for it, so nothing acts on a stale plan.
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

#include "tests/support/model_builder.h"
#include "tests/ui/panels/panel_test_util.h"
#include "ui/model_document.h"
#include "ui/panels/node_properties_panel.h"
#include "ui/panels/precision_table_model.h"

using namespace ql;

class BackgroundRelintTest : public QObject {
    Q_OBJECT
private slots:
    void anEditOfABigGraphIsRelintedOffTheGuiThread();
    void readingThePlanWaitsForTheRelint();
    void aNewerEditSupersedesTheRunningRelint();
    void aSmallGraphIsRelintedAtOnce();
    void anotherModelDropsTheRunningRelint();
};

namespace {

// `units` Conv -> Relu pairs on a 1x8x4x4 tensor: 2 * units nodes.
std::shared_ptr<Model> convChain(int units) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    std::string previous = "x";
    for (int i = 0; i < units; ++i) {
        const std::string n = std::to_string(i);
        b.initializer("w" + n, {8, 8, 1, 1}, test::seededFloats(64, 11 + i, -0.5f, 0.5f));
        b.node("Conv", {previous, "w" + n}, {"c" + n}, "conv" + n);
        b.node("Relu", {"c" + n}, {"r" + n}, "relu" + n);
        previous = "r" + n;
    }
    b.output(previous);
    return std::shared_ptr<Model>(b.load());
}

constexpr int kBigUnits = static_cast<int>(ui::ModelDocument::kRelintInBackgroundAbove) / 2 + 10;

// A conv in the middle of the chain, INT8 in the default plan (the first one is kept float).
NodeId conv(const ui::ModelDocument& document, int i) {
    return *document.model()->graph().findNode("conv" + std::to_string(i));
}

}  // namespace

void BackgroundRelintTest::anEditOfABigGraphIsRelintedOffTheGuiThread() {
    ui::ModelDocument document;
    document.replaceModel(convChain(kBigUnits));
    const NodeId first = conv(document, 5);
    QCOMPARE(document.shownPlan().effective(first), Precision::Int8);
    ui::NodePropertiesPanel properties(&document);
    properties.showNode(first);
    ui::PrecisionTableModel table(&document);
    const auto effectiveTitle = [&] {
        return table.headerData(ui::PrecisionTableModel::EffectiveColumn, Qt::Horizontal).toString();
    };
    QCOMPARE(effectiveTitle(), QStringLiteral("Effective"));
    const auto shown = [&](const char* name) {
        return test::rowValue(properties.tree(), QStringLiteral("Precision"), QString::fromLatin1(name));
    };
    QSignalSpy plan(&document, &ui::ModelDocument::planChanged);
    QSignalSpy lint(&document, &ui::ModelDocument::lintChanged);
    document.setRequestedPrecision({first}, Precision::Fp32);
    QVERIFY(document.isRelintPending());
    QCOMPARE(document.shownPlan().requested(first), Precision::Fp32);  // the edit shows at once
    QCOMPARE(plan.count(), 1);
    QCOMPARE(lint.count(), 0);
    QCOMPARE(shown("Requested"), QStringLiteral("FP32"));
    QVERIFY2(shown("Effective").contains(QStringLiteral("updating")), qPrintable(shown("Effective")));
    QCOMPARE(effectiveTitle(), QStringLiteral("Effective (updating)"));
    QTRY_COMPARE_WITH_TIMEOUT(lint.count(), 1, 30000);
    QVERIFY(!document.isRelintPending());
    QCOMPARE(plan.count(), 2);
    QCOMPARE(document.shownPlan().effective(first), Precision::Fp32);
    QCOMPARE(shown("Effective"), QStringLiteral("FP32"));
    QCOMPARE(effectiveTitle(), QStringLiteral("Effective"));
    // Undo goes the same way back.
    document.undoStack()->undo();
    QTRY_COMPARE_WITH_TIMEOUT(lint.count(), 2, 30000);
    QCOMPARE(document.shownPlan().effective(first), Precision::Int8);
}

void BackgroundRelintTest::readingThePlanWaitsForTheRelint() {
    ui::ModelDocument document;
    document.replaceModel(convChain(kBigUnits));
    const NodeId first = conv(document, 5);
    QSignalSpy lint(&document, &ui::ModelDocument::lintChanged);
    document.setRequestedPrecision({first}, Precision::Fp16);
    QVERIFY(document.isRelintPending());
    QCOMPARE(document.plan().effective(first), Precision::Fp16);  // waited for, not the effective one of before
    QVERIFY(!document.isRelintPending());
    QCOMPARE(lint.count(), 0);  // announced from the event loop, once
    QTRY_COMPARE_WITH_TIMEOUT(lint.count(), 1, 30000);
    QTest::qWait(50);
    QCOMPARE(lint.count(), 1);
}

void BackgroundRelintTest::aNewerEditSupersedesTheRunningRelint() {
    ui::ModelDocument document;
    document.replaceModel(convChain(kBigUnits));
    const NodeId first = conv(document, 5), second = conv(document, 6);
    QSignalSpy lint(&document, &ui::ModelDocument::lintChanged);
    document.setRequestedPrecision({first}, Precision::Fp32);
    document.setRequestedPrecision({second}, Precision::Fp16);
    QTRY_COMPARE_WITH_TIMEOUT(lint.count(), 1, 30000);
    QTest::qWait(200);
    QCOMPARE(lint.count(), 1);  // the first edit's relint was never announced
    QCOMPARE(document.shownPlan().effective(first), Precision::Fp32);
    QCOMPARE(document.shownPlan().effective(second), Precision::Fp16);
}

void BackgroundRelintTest::aSmallGraphIsRelintedAtOnce() {
    ui::ModelDocument document;
    document.replaceModel(convChain(10));
    QSignalSpy lint(&document, &ui::ModelDocument::lintChanged);
    document.setRequestedPrecision({conv(document, 5)}, Precision::Fp32);
    QVERIFY(!document.isRelintPending());
    QCOMPARE(lint.count(), 1);
    QCOMPARE(document.shownPlan().effective(conv(document, 5)), Precision::Fp32);
}

void BackgroundRelintTest::anotherModelDropsTheRunningRelint() {
    ui::ModelDocument document;
    document.replaceModel(convChain(kBigUnits));
    document.setRequestedPrecision({conv(document, 5)}, Precision::Fp32);
    QVERIFY(document.isRelintPending());
    document.replaceModel(convChain(kBigUnits + 1));
    QVERIFY(!document.isRelintPending());
    QCOMPARE(document.plan().size(), document.model()->graph().nodes().size());  // the new model's plan
    QCOMPARE(document.plan().requested(conv(document, 5)), Precision::Int8);
    QTest::qWait(1500);  // the old relint ends: nothing of it is taken
    QCOMPARE(document.plan().requested(conv(document, 5)), Precision::Int8);
}

QTEST_MAIN(BackgroundRelintTest)
#include "background_relint_test.moc"
