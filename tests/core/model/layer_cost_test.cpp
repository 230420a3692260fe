#include <gtest/gtest.h>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

const Node& nodeNamed(const Model& m, const std::string& name) {
    return m.graph().node(*m.graph().findNode(name));
}

TEST(LayerCostTest, ConvMacsCountEveryOutputTimesKernelVolume) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 8, 10, 10});
    b.initializer("w", {16, 4, 3, 3}, std::vector<float>(16 * 4 * 9, 0.1f));  // groups = 2
    b.initializer("b", {16}, std::vector<float>(16, 0.0f));
    b.node("Conv", {"x", "w", "b"}, {"y"}, "conv").i("group", 2).ints("strides", {2, 2});
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Node& conv = nodeNamed(*model, "conv");
    // Output [2,16,4,4]; each output element: 4 input channels per group x 3x3.
    EXPECT_EQ(conv.cost.macs, 2 * 16 * 4 * 4 * 4 * 9);
    EXPECT_EQ(conv.cost.parameterBytes, (16 * 4 * 9 + 16) * 4);
    EXPECT_FALSE(conv.cost.approximate);
}

TEST(LayerCostTest, ConvTransposeMacsCountEveryInputTimesKernelVolume) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 5, 5});
    b.initializer("w", {8, 4, 2, 2}, std::vector<float>(8 * 4 * 4, 0.1f));
    b.node("ConvTranspose", {"x", "w"}, {"y"}, "deconv").ints("strides", {2, 2});
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    EXPECT_EQ(nodeNamed(*model, "deconv").cost.macs, 8 * 5 * 5 * 4 * 4);
}

TEST(LayerCostTest, GemmHonoursTransA) {
    ModelBuilder b;
    b.input("a", DataType::Float, {7, 3});  // transA: M=3, K=7
    b.initializer("w", {5, 7}, std::vector<float>(35, 0.1f));
    b.node("Gemm", {"a", "w"}, {"y"}, "gemm").i("transA", 1).i("transB", 1);
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    EXPECT_EQ(nodeNamed(*model, "gemm").cost.macs, 3 * 5 * 7);
}

TEST(LayerCostTest, BatchedMatMulAndSymbolicBatchIsApproximate) {
    ModelBuilder b;
    b.input("a", DataType::Float, {-1, 4, 6, 8});
    b.input("c", DataType::Float, {-1, 4, 8, 10});
    b.node("MatMul", {"a", "c"}, {"y"}, "mm");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Node& mm = nodeNamed(*model, "mm");
    EXPECT_EQ(mm.cost.macs, 4 * 6 * 10 * 8);
    EXPECT_TRUE(mm.cost.approximate);
    EXPECT_EQ(mm.cost.parameterBytes, 0);
}

TEST(LayerCostTest, OtherOpsCostNothing) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    EXPECT_EQ(nodeNamed(*model, "relu").cost.macs, 0);
}

}  // namespace
}  // namespace ql
