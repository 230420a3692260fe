// A big graph whose names have no scopes (a flat export) is grouped in ranges of graph order, so that it opens
// collapsed into blocks like a scoped one (issue 29: a flat 100k-node graph took 34 s and 2 GB to show node by node).
#include <QtTest>

#include "tests/ui/graph/graph_test_models.h"
#include "ui/graph/graph_snapshot.h"
#include "ui/graph/visible_graph.h"

using namespace ql;
using namespace ql::ui;

class RangeScopesTest : public QObject {
    Q_OBJECT
private slots:
    void aBigFlatGraphIsGroupedInRangesOfAThousand();
    void rangesNestPastTenThousand();
    void aScopedOrSmallGraphKeepsItsNames();
    void aRangeBlockOpensToItsNodes();
    void eachScopeIsNamedOnceAndListedOutermostFirst();
};

namespace {

std::vector<std::string> blockTitles(const VisibleGraph& graph) {
    std::vector<std::string> titles;
    for (const VisibleNode& node : graph.nodes)
        if (node.kind == VisibleKind::Block) titles.push_back(node.title);
    return titles;
}

}  // namespace

void RangeScopesTest::aBigFlatGraphIsGroupedInRangesOfAThousand() {
    const GraphSnapshot snapshot = GraphSnapshot::from(test::chainModel(2500)->graph());
    QCOMPARE(scopeSource(snapshot.nodes[0]), std::string("/nodes 1-1000/node_0"));
    QCOMPARE(scopeSource(snapshot.nodes[2499]), std::string("/nodes 2001-2500/node_2499"));
    QCOMPARE(snapshot.nodes[0].name, std::string("node_0"));  // the name shown and searched is the node's own
    const VisibleGraph shown = buildVisibleGraph(snapshot, {});
    QCOMPARE(blockTitles(shown), (std::vector<std::string>{"1-1000", "1001-2000", "2001-2500"}));
    QCOMPARE(shown.operatorCount, size_t{2500});
}

void RangeScopesTest::rangesNestPastTenThousand() {
    const GraphSnapshot snapshot = GraphSnapshot::from(test::chainModel(12000)->graph());
    QCOMPARE(scopeSource(snapshot.nodes[10500]), std::string("/nodes 10001-12000/nodes 10001-11000/node_10500"));
    const VisibleGraph shown = buildVisibleGraph(snapshot, {});
    // 12 blocks of 1,000 fit the budget of boxes: the inner level is the one collapsed.
    QCOMPARE(blockTitles(shown).size(), size_t{12});
    QCOMPARE(blockTitles(shown).back(), std::string("11001-12000"));
}

void RangeScopesTest::aScopedOrSmallGraphKeepsItsNames() {
    const GraphSnapshot scoped = GraphSnapshot::from(test::scopedModel(3000)->graph());
    QVERIFY(scoped.nodes[0].rangeScopedName.empty());
    QCOMPARE(scopeSource(scoped.nodes[0]), scoped.nodes[0].name);
    const GraphSnapshot small = GraphSnapshot::from(test::chainModel(static_cast<int>(kRangeScopesAbove))->graph());
    QVERIFY(small.nodes[0].rangeScopedName.empty());
}

void RangeScopesTest::aRangeBlockOpensToItsNodes() {
    const GraphSnapshot snapshot = GraphSnapshot::from(test::chainModel(2500)->graph());
    VisibilityOptions options;
    options.expandedScopes.insert("/nodes 1-1000");
    const VisibleGraph shown = buildVisibleGraph(snapshot, options);
    QCOMPARE(blockTitles(shown), (std::vector<std::string>{"1001-2000", "2001-2500"}));
    size_t operators = 0;
    for (const VisibleNode& node : shown.nodes) operators += node.kind == VisibleKind::Operator ? 1 : 0;
    QCOMPARE(operators, size_t{1000});
}

// The view regroups from the snapshot's scope index (found once, not per expand): a node's scopes, outermost first,
// the same index for the same scope in every node.
void RangeScopesTest::eachScopeIsNamedOnceAndListedOutermostFirst() {
    const GraphSnapshot snapshot = GraphSnapshot::from(test::chainModel(12000)->graph());
    const auto names = [&](size_t node) {
        std::vector<std::string> scopes;
        for (int id : snapshot.scopesOf(node)) scopes.push_back(snapshot.scopeNames.at(static_cast<size_t>(id)));
        return scopes;
    };
    QCOMPARE(names(10500), (std::vector<std::string>{"/nodes 10001-12000", "/nodes 10001-12000/nodes 10001-11000"}));
    QCOMPARE(names(10500), scopePrefixes(scopeSource(snapshot.nodes[10500])));
    QCOMPARE(snapshot.scopesOf(10000).front(), snapshot.scopesOf(11999).front());
    QVERIFY(snapshot.scopesOf(10000).back() != snapshot.scopesOf(11999).back());
    // 2 outer ranges and 12 inner ones.
    QCOMPARE(snapshot.scopeNames.size(), size_t{14});
}

QTEST_MAIN(RangeScopesTest)
#include "range_scopes_test.moc"
