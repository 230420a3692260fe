#include "core/export/graph_preparation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/exec/executor.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

// Adds a BatchNormalization over `channels` reading x and writing y, with non-trivial statistics.
void addBatchNorm(ModelBuilder& b, const std::string& x, const std::string& y, int64_t channels, uint32_t seed) {
    const auto n = static_cast<size_t>(channels);
    b.initializer(y + "_scale", {channels}, seededFloats(n, seed, 0.5f, 2.0f));
    b.initializer(y + "_b", {channels}, seededFloats(n, seed + 1));
    b.initializer(y + "_mean", {channels}, seededFloats(n, seed + 2));
    b.initializer(y + "_var", {channels}, seededFloats(n, seed + 3, 0.1f, 3.0f));
    b.node("BatchNormalization", {x, y + "_scale", y + "_b", y + "_mean", y + "_var"}, {y}, y + "_bn")
        .f("epsilon", 1e-3f);
}

std::vector<float> runModel(const Model& model, const Shape& inputShape) {
    auto exec = Executor::create(model.graph());
    EXPECT_TRUE(exec) << exec.status().message();
    if (!exec) return {};
    const auto values = seededFloats(static_cast<size_t>(shapeElementCount(inputShape)), 99);
    auto out = (*exec)->run({{"x", Tensor::fromVector(DataType::Float, inputShape, values)}});
    EXPECT_TRUE(out) << out.status().message();
    return out ? (*out)[0].second.toFloats() : std::vector<float>{};
}

int countOps(const Model& model, const std::string& op) {
    const auto& nodes = model.graph().nodes();
    return static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.opType == op; }));
}

// Prepares the model, checks every BatchNormalization folded and the output is unchanged (1e-5 relative).
std::unique_ptr<Model> expectFoldedAndUnchanged(const Model& model, const Shape& inputShape) {
    auto prepared = prepareModel(model);
    EXPECT_TRUE(prepared) << prepared.status().message();
    if (!prepared) return nullptr;
    EXPECT_EQ(countOps(*prepared->model, "BatchNormalization"), 0);
    const auto before = runModel(model, inputShape);
    const auto after = runModel(*prepared->model, inputShape);
    EXPECT_EQ(before.size(), after.size());
    for (size_t i = 0; i < std::min(before.size(), after.size()); ++i)
        EXPECT_NEAR(after[i], before[i], 1e-5f * std::max(1.0f, std::fabs(before[i]))) << "element " << i;
    return std::move(prepared->model);
}

TEST(GraphPreparationTest, ConvBatchNormReluFoldsAndKeepsNames) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108));
    b.initializer("bias", {4}, seededFloats(4, 5));
    b.node("Conv", {"x", "w", "bias"}, {"conv_out"}, "conv1").ints("pads", {1, 1, 1, 1});
    addBatchNorm(b, "conv_out", "bn_out", 4, 11);
    b.node("Relu", {"bn_out"}, {"y"}, "relu1");
    b.output("y");
    auto prepared = expectFoldedAndUnchanged(*b.load(), {1, 3, 8, 8});
    ASSERT_TRUE(prepared);
    const auto conv = prepared->graph().findNode("conv1");
    ASSERT_TRUE(conv);
    EXPECT_EQ(prepared->graph().value(prepared->graph().node(*conv).outputs[0]).name, "bn_out");
    EXPECT_TRUE(prepared->graph().findNode("relu1"));
}

TEST(GraphPreparationTest, ConvWithoutBiasGetsOne) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3, 6, 6});
    b.initializer("w", {5, 3, 1, 1}, seededFloats(15));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    addBatchNorm(b, "c", "y", 5, 21);
    b.output("y");
    auto prepared = expectFoldedAndUnchanged(*b.load(), {2, 3, 6, 6});
    ASSERT_TRUE(prepared);
    EXPECT_EQ(prepared->graph().node(*prepared->graph().findNode("conv")).inputs.size(), 3u);
}

TEST(GraphPreparationTest, GroupedConvBatchNormFolds) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 5, 5});
    b.initializer("w", {6, 2, 3, 3}, seededFloats(108, 3));
    b.node("Conv", {"x", "w"}, {"c"}, "gconv").i("group", 2);
    addBatchNorm(b, "c", "y", 6, 31);
    b.output("y");
    expectFoldedAndUnchanged(*b.load(), {1, 4, 5, 5});
}

TEST(GraphPreparationTest, GroupedConvTransposeBatchNormScalesAxisOnePerGroup) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 3, 3});
    b.initializer("w", {4, 3, 2, 2}, seededFloats(48, 4));  // C_in 4, C_out/group 3, group 2: 6 outputs
    b.initializer("bias", {6}, seededFloats(6, 8));
    b.node("ConvTranspose", {"x", "w", "bias"}, {"c"}, "deconv").i("group", 2).ints("strides", {2, 2});
    addBatchNorm(b, "c", "y", 6, 41);
    b.output("y");
    expectFoldedAndUnchanged(*b.load(), {1, 4, 3, 3});
}

TEST(GraphPreparationTest, GemmBatchNormViaFlattenFoldsWithAndWithoutTransB) {
    for (int64_t transB : {0, 1}) {
        ModelBuilder b;
        b.input("x", DataType::Float, {2, 3, 2, 2});
        b.node("Flatten", {"x"}, {"flat"}, "flatten");
        b.initializer("w", transB ? std::vector<int64_t>{5, 12} : std::vector<int64_t>{12, 5}, seededFloats(60, 6));
        b.initializer("c", {5}, seededFloats(5, 9));
        b.node("Gemm", {"flat", "w", "c"}, {"g"}, "fc").i("transB", transB).f("alpha", 0.5f).f("beta", 2.0f);
        addBatchNorm(b, "g", "y", 5, 51);
        b.output("y");
        SCOPED_TRACE("transB=" + std::to_string(transB));
        expectFoldedAndUnchanged(*b.load(), {2, 3, 2, 2});
    }
}

TEST(GraphPreparationTest, BatchNormIsKeptWhenTheConvOutputHasAnotherConsumer) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("w", {2, 2, 1, 1}, seededFloats(4));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    addBatchNorm(b, "c", "n", 2, 61);
    b.node("Add", {"c", "n"}, {"y"}, "add");
    b.output("y");
    auto model = b.load();
    auto prepared = prepareModel(*model);
    ASSERT_TRUE(prepared) << prepared.status().message();
    EXPECT_EQ(countOps(*prepared->model, "BatchNormalization"), 1);
    ASSERT_EQ(prepared->steps.size(), 1u);
    EXPECT_EQ(prepared->steps[0].action, "keep-batchnorm");
    EXPECT_NE(prepared->steps[0].detail.find("'c'"), std::string::npos) << prepared->steps[0].detail;
}

TEST(GraphPreparationTest, ConstantSubgraphBecomesInitializersWithTheSameNames) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 3});
    b.node("Constant", {}, {"k"}, "k_const").tensor("value", test::makeTensor("k", DataType::Float, {3}, {1, 2, 3}));
    b.node("Mul", {"k", "k"}, {"k2"}, "square");
    b.node("Add", {"x", "k2"}, {"y"}, "add");
    b.output("y");
    auto model = b.load();
    auto prepared = prepareModel(*model);
    ASSERT_TRUE(prepared) << prepared.status().message();
    const Graph& g = prepared->model->graph();
    EXPECT_EQ(g.nodes().size(), 1u);
    const auto k2 = g.findValue("k2");
    ASSERT_TRUE(k2);
    ASSERT_NE(g.initializerOf(*k2), nullptr);
    EXPECT_TRUE(g.findNode("add"));
    const auto before = runModel(*model, {2, 3});
    EXPECT_EQ(runModel(*prepared->model, {2, 3}), before);
}

TEST(GraphPreparationTest, OverridableInitializerIsNotFolded) {
    ModelBuilder b;
    b.input("x", DataType::Float, {3});
    b.initializer("k", {3}, {1, 2, 3});
    *b.graph().add_input() = b.graph().input(0);
    b.graph().mutable_input(1)->set_name("k");
    b.node("Neg", {"k"}, {"nk"}, "neg");
    b.node("Add", {"x", "nk"}, {"y"}, "add");
    b.output("y");
    auto prepared = prepareModel(*b.load());
    ASSERT_TRUE(prepared) << prepared.status().message();
    EXPECT_TRUE(prepared->model->graph().findNode("neg"));
}

}  // namespace
}  // namespace ql
