#include "core/exec/subgraph.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/exec/executor.h"
#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// Records the paths of nested tensors (and how often each came), and the top-level values by name.
class NestedRecorder final : public TensorObserver {
public:
    explicit NestedRecorder(const Graph& graph) : mGraph(graph) {}
    void observe(const Node&, ValueId value, const Tensor&) override { topLevel.push_back(mGraph.value(value).name); }
    bool wantsNested(const std::string& path) const override { return path.find("skip") == std::string::npos; }
    void observeNested(const std::string& path, const Node& producer, const Tensor& tensor) override {
        ++counts[path];
        producers[path] = producer.opType;
        last[path] = tensor.toFloats();
    }
    std::vector<std::string> topLevel;
    std::map<std::string, int> counts;
    std::map<std::string, std::string> producers;
    std::map<std::string, std::vector<float>> last;

private:
    const Graph& mGraph;
};

// x -> Relu -> r; Neg(r) -> n; If(c): then r * 2 (+ a nested If), else r; y = If + n.
ModelBuilder branchyModel() {
    ModelBuilder b(13);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {2});
    b.node("Relu", {"x"}, {"r"});
    b.node("Neg", {"r"}, {"n"});
    const auto innerThen = subgraph("inner_then", [](ModelBuilder& g) {
        g.node("Sigmoid", {"doubled"}, {"sig"});
        g.output("sig", DataType::Float, {2}, true);
    });
    const auto innerElse = subgraph("inner_else", [](ModelBuilder& g) {
        g.node("Identity", {"r"}, {"skip_me"});
        g.output("skip_me", DataType::Float, {2}, true);
    });
    const auto thenBranch = subgraph("then", [&](ModelBuilder& g) {
        g.initializer("two", {1}, {2.0f});
        g.node("Mul", {"r", "two"}, {"doubled"});
        g.node("If", {"c"}, {"inner_out"}).graph("then_branch", innerThen).graph("else_branch", innerElse);
        g.node("Add", {"doubled", "inner_out"}, {"t"});
        g.output("t", DataType::Float, {2}, true);
    });
    const auto elseBranch = subgraph("else", [](ModelBuilder& g) { g.output("r", DataType::Float, {2}, true); });
    b.node("If", {"c"}, {"chosen"}).graph("then_branch", thenBranch).graph("else_branch", elseBranch);
    b.node("Add", {"chosen", "n"}, {"y"});
    b.output("y");
    return b;
}

}  // namespace

TEST(SubgraphTest, OuterScopeNamesAreWhatTheBodyReadsButDoesNotDefine) {
    const auto body = subgraph("body", [](ModelBuilder& g) {
        g.input("own", DataType::Float, {1});
        g.initializer("weight", {1}, {1.0f});
        g.node("Add", {"own", "outer_a"}, {"s"});
        g.node("Mul", {"s", "weight"}, {"m"});
        g.node("Mul", {"m", "outer_a"}, {"m2"});
        const auto nested = subgraph("nested", [](ModelBuilder& n) {
            n.node("Add", {"m", "outer_b"}, {"k"});
            n.output("k", DataType::Float, {1}, true);
        });
        g.node("If", {"cond"}, {"i"}).graph("then_branch", nested).graph("else_branch", nested);
        g.output("i", DataType::Float, {1}, true);
        g.output("outer_c", DataType::Float, {1}, true);
    });
    EXPECT_EQ(outerScopeNames(body), (std::vector<std::string>{"outer_a", "cond", "outer_b", "outer_c"}));
}

TEST(SubgraphTest, ObserverSeesTensorsInsideSubgraphsNamedByWhereTheyAre) {
    const ModelBuilder b = branchyModel();
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec) << exec.status().message();
    NestedRecorder recorder(model->graph());
    RunOptions options;
    options.observer = &recorder;
    auto out = (*exec)->run({{"c", bools({}, {1})}, {"x", floats({2}, {1, -1})}}, options);
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(recorder.topLevel, (std::vector<std::string>{"r", "n", "chosen", "y"}));
    EXPECT_EQ(recorder.counts, (std::map<std::string, int>{{"If_0/then_branch/doubled", 1},
                                                           {"If_0/then_branch/If_0/then_branch/sig", 1},
                                                           {"If_0/then_branch/inner_out", 1},
                                                           {"If_0/then_branch/t", 1}}));
    EXPECT_EQ(recorder.producers["If_0/then_branch/If_0/then_branch/sig"], "Sigmoid");
    EXPECT_EQ(recorder.last["If_0/then_branch/doubled"], (std::vector<float>{2, 0}));
    // r = [1, 0]: then gives 2r + sigmoid(2r), plus n = -r.
    const std::vector<float> y = (*out)[0].second.toFloats();
    EXPECT_NEAR(y[0], 2 + 1 / (1 + std::exp(-2.0f)) - 1, 1e-6f);
    EXPECT_NEAR(y[1], 0.5f, 1e-6f);
}

TEST(SubgraphTest, NestedTensorsTheObserverDoesNotWantAreNotShown) {
    auto model = branchyModel().load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    NestedRecorder recorder(model->graph());
    RunOptions options;
    options.observer = &recorder;
    ASSERT_TRUE((*exec)->run({{"c", bools({}, {0})}, {"x", floats({2}, {1, -1})}}, options));
    EXPECT_TRUE(recorder.counts.empty());  // else_branch only passes r through: no node, nothing to see
}

TEST(SubgraphTest, ALoopBodyIsObservedOncePerIteration) {
    ModelBuilder b(13);
    b.input("m", DataType::Int64, {});
    b.input("s0", DataType::Float, {1});
    const auto body = subgraph("body", [](ModelBuilder& g) {
        scalarInput(g, "iter", DataType::Int64);
        scalarInput(g, "cond_in", DataType::Bool);
        g.input("s", DataType::Float, {1});
        g.initializer("one", {1}, {1.0f});
        g.node("Add", {"s", "one"}, {"s_out"});
        g.node("Identity", {"cond_in"}, {"cond_out"});
        g.output("cond_out", DataType::Bool, {}, true);
        g.output("s_out", DataType::Float, {1}, true);
    });
    b.node("Loop", {"m", "", "s0"}, {"s"}, "counter").graph("body", body);
    b.output("s");
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    NestedRecorder recorder(model->graph());
    RunOptions options;
    options.observer = &recorder;
    ASSERT_TRUE((*exec)->run({{"m", int64s({}, {3})}, {"s0", floats({1}, {0})}}, options));
    EXPECT_EQ(recorder.counts["counter/body/s_out"], 3);
    EXPECT_EQ(recorder.last["counter/body/s_out"], (std::vector<float>{3}));
}

TEST(SubgraphTest, ValuesReadOnlyFromOuterScopeLiveUntilTheNodeRuns) {
    // 'r' is last read by Neg as far as the graph's consumers go; the If after it still needs it.
    auto model = branchyModel().load();
    for (bool fuse : {false, true}) {
        auto exec = Executor::create(model->graph(), {1, fuse});
        ASSERT_TRUE(exec);
        auto out = (*exec)->run({{"c", bools({}, {0})}, {"x", floats({2}, {3, -1})}});
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_EQ((*out)[0].second.toFloats(), (std::vector<float>{0, 0}));  // r + (-r)
    }
}

TEST(SubgraphTest, FusionDoesNotHideATensorASubgraphReads) {
    // Conv -> Relu fuses when the Conv output has no other reader; here a branch reads it too.
    ModelBuilder b(13);
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 1, 2, 2});
    b.initializer("w", {1, 1, 1, 1}, {-1.0f});
    b.node("Conv", {"x", "w"}, {"conv"});
    b.node("Relu", {"conv"}, {"relu"});
    const auto raw = subgraph("raw", [](ModelBuilder& g) { g.output("conv", DataType::Float, {1, 1, 2, 2}, true); });
    b.node("If", {"c"}, {"picked"}).graph("then_branch", raw).graph("else_branch", raw);
    b.output("relu");
    b.output("picked");
    auto model = b.load();
    auto exec = Executor::create(model->graph(), {1, true});
    ASSERT_TRUE(exec) << exec.status().message();
    auto out = (*exec)->run({{"c", bools({}, {1})}, {"x", floats({1, 1, 2, 2}, {1, -2, 3, -4})}});
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ((*out)[0].second.toFloats(), (std::vector<float>{0, 2, 0, 4}));
    EXPECT_EQ((*out)[1].second.toFloats(), (std::vector<float>{-1, 2, -3, 4}));
}

TEST(SubgraphTest, AStopRequestEndsALoopWithCancelled) {
    ModelBuilder b(13);
    b.input("cond", DataType::Bool, {});
    const auto forever = subgraph("forever", [](ModelBuilder& g) {
        scalarInput(g, "iter", DataType::Int64);
        scalarInput(g, "cond_in", DataType::Bool);
        g.node("Identity", {"cond_in"}, {"cond_out"});
        g.output("cond_out", DataType::Bool, {}, true);
    });
    b.node("Loop", {"", "cond"}, {}).graph("body", forever);
    b.node("Identity", {"cond"}, {"y"});
    b.output("y", DataType::Bool);
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec) << exec.status().message();
    std::stop_source source;
    source.request_stop();
    RunOptions options;
    options.stop = source.get_token();
    auto out = (*exec)->run({{"cond", bools({}, {1})}}, options);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.status().code(), StatusCode::Cancelled);
}

}  // namespace ql::test
