#include "core/exec/kernels/loop.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// Loop(M, cond, s): s += x (x from the enclosing graph) each iteration; scan output: s after the iteration.
ModelBuilder accumulate(int64_t opset) {
    ModelBuilder b(opset);
    b.input("m", DataType::Int64, {});
    b.input("cond", DataType::Bool, {});
    b.input("s0", DataType::Float, {2});
    b.input("x", DataType::Float, {2});
    const auto body = subgraph(
        "body",
        [](ModelBuilder& g) {
            scalarInput(g, "iter", DataType::Int64);
            scalarInput(g, "cond_in", DataType::Bool);
            g.input("s", DataType::Float, {2});
            g.node("Identity", {"cond_in"}, {"cond_out"});
            g.node("Add", {"s", "x"}, {"s_out"});
            g.node("Identity", {"s_out"}, {"scan"});
            g.output("cond_out", DataType::Bool, {}, true);
            g.output("s_out", DataType::Float, {2}, true);
            g.output("scan", DataType::Float, {2}, true);
        },
        opset);
    b.node("Loop", {"m", "cond", "s0"}, {"s_final", "scans"}, "loop").graph("body", body);
    b.output("s_final");
    b.output("scans");
    return b;
}

NamedTensors accumulateInputs(int64_t trips) {
    return {{"m", int64s({}, {trips})},
            {"cond", bools({}, {1})},
            {"s0", floats({2}, {0, 10})},
            {"x", floats({2}, {1, -1})}};
}

}  // namespace

TEST(LoopTest, CarriesValuesAndStacksScanOutputs) {
    for (int64_t opset : {11, 13, 16, 21}) {
        auto out = runModel(accumulate(opset), accumulateInputs(3));
        ASSERT_TRUE(out) << "opset " << opset << ": " << out.status().message();
        expectNear((*out)[0], {3, 7});
        EXPECT_EQ((*out)[1].shape(), (Shape{3, 2}));
        expectNear((*out)[1], {1, 9, 2, 8, 3, 7});
    }
}

TEST(LoopTest, ZeroIterationsGiveTheInitialValuesAndEmptyScans) {
    auto out = runModel(accumulate(13), accumulateInputs(0));
    ASSERT_TRUE(out) << out.status().message();
    expectNear((*out)[0], {0, 10});
    EXPECT_EQ((*out)[1].shape(), (Shape{0, 2}));
    EXPECT_EQ((*out)[1].dtype(), DataType::Float);
}

TEST(LoopTest, RunsWhileTheBodysConditionHoldsWithoutATripCount) {
    ModelBuilder b(13);
    b.input("cond", DataType::Bool, {});
    b.input("n0", DataType::Int64, {});
    b.initializer("limit", DataType::Int64, {}, {4});
    const auto body = subgraph("body", [](ModelBuilder& g) {
        scalarInput(g, "iter", DataType::Int64);
        scalarInput(g, "cond_in", DataType::Bool);
        scalarInput(g, "n", DataType::Int64);
        g.initializer("one", DataType::Int64, {}, {1});
        g.node("Add", {"iter", "one"}, {"next"});
        g.node("Less", {"next", "limit"}, {"cond_out"});  // limit: outer scope initializer
        g.node("Add", {"n", "one"}, {"n_out"});
        g.output("cond_out", DataType::Bool, {}, true);
        g.output("n_out", DataType::Int64, {}, true);
    });
    b.node("Loop", {"", "cond", "n0"}, {"count"}).graph("body", body);
    b.output("count", DataType::Int64);
    auto out = runModel(b, {{"cond", bools({}, {1})}, {"n0", int64s({}, {0})}});
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{4}));
}

TEST(LoopTest, AScanOutputThatChangesShapeIsAnErrorNamingTheNode) {
    ModelBuilder b(13);
    b.input("m", DataType::Int64, {});
    const auto body = subgraph("body", [](ModelBuilder& g) {
        scalarInput(g, "iter", DataType::Int64);
        scalarInput(g, "cond_in", DataType::Bool);
        g.initializer("zero", DataType::Int64, {}, {0});
        g.initializer("one", DataType::Int64, {}, {1});
        g.node("Add", {"iter", "one"}, {"end"});
        g.node("Range", {"zero", "end", "one"}, {"r"});
        g.node("Identity", {"cond_in"}, {"cond_out"});
        g.output("cond_out", DataType::Bool, {}, true);
        g.output("r", DataType::Int64, {-1}, true);
    });
    b.node("Loop", {"m", ""}, {"rs"}, "ragged").graph("body", body);
    b.output("rs", DataType::Int64);
    auto out = runModel(b, {{"m", int64s({}, {3})}});
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Node (ragged) Op (Loop): scan output 0 changes from [1] to [2]"),
              std::string::npos)
        << out.status().message();
}

TEST(LoopTest, ABodyWithTheWrongInputCountIsRefusedWhenTheExecutorIsBuilt) {
    ModelBuilder b(13);
    b.input("m", DataType::Int64, {});
    b.input("s0", DataType::Float, {1});
    const auto body = subgraph("body", [](ModelBuilder& g) {
        scalarInput(g, "iter", DataType::Int64);
        scalarInput(g, "cond_in", DataType::Bool);
        g.output("cond_in", DataType::Bool, {}, true);
        g.output("iter", DataType::Int64, {}, true);
    });
    b.node("Loop", {"m", "", "s0"}, {"s"}, "short_body").graph("body", body);
    b.output("s");
    auto model = b.tryLoad();
    ASSERT_TRUE(model) << model.status().message();
    auto exec = Executor::create((*model)->graph());
    ASSERT_FALSE(exec);
    EXPECT_NE(exec.status().message().find("Node (short_body) Op (Loop): the body takes 2 inputs"), std::string::npos)
        << exec.status().message();
}

}  // namespace ql::test
