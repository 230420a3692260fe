#include "core/quant/weight_ranges.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

TEST(WeightRanges, ChannelAxisFollowsTheWeightLayout) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 5, 5});
    b.input("m", DataType::Float, {2, 6});
    b.initializer("wc", {3, 4, 1, 1}, std::vector<float>(12, 1.0f));
    b.initializer("wt", {4, 2, 1, 1}, std::vector<float>(8, 1.0f));
    b.initializer("g0", {6, 5}, std::vector<float>(30, 1.0f));
    b.initializer("g1", {5, 6}, std::vector<float>(30, 1.0f));
    b.initializer("mm", {6, 7}, std::vector<float>(42, 1.0f));
    b.node("Conv", {"x", "wc"}, {"c"}, "conv");
    b.node("ConvTranspose", {"x", "wt"}, {"t"}, "deconv");
    b.node("Gemm", {"m", "g1"}, {"gy0"}, "gemm_t").i("transB", 1);
    b.node("Gemm", {"m", "g0"}, {"gy1"}, "gemm");
    b.node("MatMul", {"m", "mm"}, {"my"}, "matmul");
    b.node("Relu", {"m"}, {"r"}, "relu");
    for (const char* out : {"c", "t", "gy0", "gy1", "my", "r"}) b.output(out);
    auto model = b.load();
    const Graph& g = model->graph();
    const auto axis = [&](const char* name, size_t input, size_t rank) {
        return weightChannelAxis(g.node(*g.findNode(name)), input, rank);
    };
    EXPECT_EQ(axis("conv", 1, 4), 0);
    EXPECT_EQ(axis("deconv", 1, 4), 1);
    EXPECT_EQ(axis("gemm_t", 1, 2), 0);
    EXPECT_EQ(axis("gemm", 1, 2), 1);
    EXPECT_EQ(axis("matmul", 1, 2), 1);
    EXPECT_EQ(axis("matmul", 1, 3), 2);
    EXPECT_EQ(axis("conv", 0, 4), std::nullopt);  // the activation input
    EXPECT_EQ(axis("conv", 2, 1), std::nullopt);  // bias
    EXPECT_EQ(axis("relu", 1, 2), std::nullopt);
}

TEST(WeightRanges, PerChannelAmaxReducesEveryOtherAxis) {
    // [2, 3, 2]: channel values along axis 0, 1 and 2 are easy to read off.
    const std::vector<float> w = {1, -2, 3, -4, 5, -6, -7, 8, -9, 10, -11, 12};
    const Tensor t = Tensor::fromVector(DataType::Float, {2, 3, 2}, w);
    EXPECT_EQ(*perChannelAmax(t, 0), (std::vector<float>{6, 12}));
    EXPECT_EQ(*perChannelAmax(t, 1), (std::vector<float>{8, 10, 12}));
    EXPECT_EQ(*perChannelAmax(t, 2), (std::vector<float>{11, 12}));
}

TEST(WeightRanges, ZeroChannelGivesZeroAndHalfWeightsWork) {
    const Tensor t = Tensor::fromVector(DataType::Float16, {2, 1}, std::vector<uint16_t>{0x0000, 0xc000});  // 0, -2
    EXPECT_EQ(*perChannelAmax(t, 0), (std::vector<float>{0, 2}));
}

// A NaN or Inf weight (a corrupt or overflowed checkpoint) must not become its channel's amax: the scale
// would be NaN or Inf and every weight of the channel would quantize to garbage.
TEST(WeightRanges, NonFiniteWeightsAreSkipped) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const Tensor t = Tensor::fromVector(DataType::Float, {2, 3}, std::vector<float>{nan, -3, 1, -inf, 2, nan});
    EXPECT_EQ(*perChannelAmax(t, 0), (std::vector<float>{3, 2}));
    EXPECT_EQ(*perChannelAmax(t, 1), (std::vector<float>{0, 3, 1}));
}

TEST(WeightRanges, RejectsBadAxisAndIntegerWeights) {
    const Tensor t = Tensor::zeros(DataType::Float, {2, 2});
    EXPECT_FALSE(perChannelAmax(t, 2).isOk());
    EXPECT_FALSE(perChannelAmax(t, -1).isOk());
    EXPECT_EQ(perChannelAmax(Tensor::zeros(DataType::Int8, {2, 2}), 0).status().code(), StatusCode::Unsupported);
}

}  // namespace
}  // namespace ql
