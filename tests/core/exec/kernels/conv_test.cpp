#include <gtest/gtest.h>

#include "core/exec/kernels/onednn_layer.h"
#include "tests/core/exec/kernels/conv_reference.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::ConvCase;
using test::floats;
using test::NodeSpec;

std::function<void(test::NodeBuilder&)> convAttributes(const ConvCase& c) {
    return [c](test::NodeBuilder& n) {
        n.i("group", c.group);
        if (!c.strides.empty()) n.ints("strides", c.strides);
        if (!c.dilations.empty()) n.ints("dilations", c.dilations);
        Shape pads = c.padBegin;
        pads.insert(pads.end(), c.padEnd.begin(), c.padEnd.end());
        if (!pads.empty()) n.ints("pads", pads);
    };
}

// Runs Conv with X, W (and B) as graph inputs and compares with the naive reference.
void expectMatchesReference(const ConvCase& c, bool withBias, int threads = 1) {
    const auto x = test::seededFloats(static_cast<size_t>(shapeElementCount(c.x)), 1);
    const auto w = test::seededFloats(static_cast<size_t>(shapeElementCount(c.w)), 2);
    const auto b = withBias ? test::seededFloats(static_cast<size_t>(c.w[0]), 3) : std::vector<float>();
    Shape outShape;
    const auto expected = test::referenceConv(c, x, w, b, outShape, false);
    NamedTensors inputs = {{"x", floats(c.x, x)}, {"w", floats(c.w, w)}};
    if (withBias) inputs.emplace_back("b", floats({c.w[0]}, b));
    auto outputs = test::runNode(NodeSpec("Conv", inputs, {}, 17, convAttributes(c)), threads);
    ASSERT_TRUE(outputs) << outputs.status().message();
    const Tensor* y = &outputs->at(0);
    EXPECT_EQ(y->shape(), outShape);
    test::expectNear(*y, expected, 1e-4f);
}

// A 1x1 convolution of a 1x1 map (squeeze-excite) runs as a matrix-vector product: batches, odd channel counts,
// 1-D and 2-D maps, with and without bias, on 1 and 2 threads; a padded 1x1 map does not.
TEST(ConvTest, OneByOneMapsMatchTheReference) {
    const auto plain = [](Shape x, Shape w) { return ConvCase{std::move(x), std::move(w), 1, {}, {}, {}, {}, {}}; };
    ConvCase strided = plain({2, 8, 1, 1}, {4, 8, 1, 1}), padded = plain({1, 8, 1, 1}, {4, 8, 1, 1});
    strided.strides = {2, 2};
    padded.padBegin = {1, 0};
    padded.padEnd = {0, 1};
    for (const ConvCase& c : {plain({1, 37, 1, 1}, {5, 37, 1, 1}), plain({3, 40, 1, 1}, {19, 40, 1, 1}),
                              plain({2, 3000, 1}, {24, 3000, 1}), strided, padded})
        for (bool bias : {false, true})
            for (int threads : {1, 2}) {
                SCOPED_TRACE(shapeString(c.x) + " x " + shapeString(c.w) + (bias ? " with bias" : "") + " on " +
                             std::to_string(threads) + " threads");
                expectMatchesReference(c, bias, threads);
            }
}

TEST(ConvTest, HandComputed2x2OnesKernelSumsWindowsPlusBias) {
    auto y = test::runOne(NodeSpec("Conv", {{"x", floats({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8})},
                                            {"w", floats({1, 1, 2, 2}, {1, 1, 1, 1})},
                                            {"b", floats({1}, {0.5f})}}));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{1, 1, 2, 2}));
    test::expectNear(*y, {8.5f, 12.5f, 20.5f, 24.5f});
}

Result<Tensor> conv1d(const std::string& autoPad) {
    return test::runOne(NodeSpec("Conv", {{"x", floats({1, 1, 4}, {1, 2, 3, 4})}, {"w", floats({1, 1, 2}, {1, 1})}}, {},
                                 17, [autoPad](test::NodeBuilder& n) { n.s("auto_pad", autoPad); }));
}

TEST(ConvTest, AutoPadSameUpperPadsTheEndSameLowerTheBeginningValidNothing) {
    auto upper = conv1d("SAME_UPPER"), lower = conv1d("SAME_LOWER"), valid = conv1d("VALID");
    ASSERT_TRUE(upper && lower && valid);
    test::expectNear(*upper, {3, 5, 7, 4});
    test::expectNear(*lower, {1, 3, 5, 7});
    test::expectNear(*valid, {3, 5, 7});
}

TEST(ConvTest, RandomGroupedStridedDilatedAsymmetricPads2D) {
    expectMatchesReference({{2, 6, 9, 7}, {4, 3, 3, 2}, 2, {2, 1}, {1, 2}, {1, 0}, {2, 1}, {}}, true);
}

TEST(ConvTest, TwoThreadsGiveTheSameResult) {
    expectMatchesReference({{2, 8, 13, 11}, {16, 8, 3, 3}, 1, {1, 1}, {}, {1, 1}, {1, 1}, {}}, true, 2);
}

TEST(ConvTest, RandomDepthwise) {
    expectMatchesReference({{1, 5, 8, 6}, {5, 1, 3, 3}, 5, {1, 2}, {}, {1, 1}, {1, 1}, {}}, true);
}

TEST(ConvTest, Random1DAnd3D) {
    expectMatchesReference({{2, 3, 11}, {4, 3, 3}, 1, {2}, {2}, {1}, {0}, {}}, false);
    expectMatchesReference({{1, 2, 5, 4, 6}, {3, 2, 2, 3, 2}, 1, {1, 1, 2}, {1, 1, 1}, {0, 1, 1}, {1, 1, 0}, {}}, true);
}

TEST(ConvTest, ConstantWeightsAreReusedAcrossRunsAndInputShapes) {
    const ConvCase c{{1, 3, 6, 6}, {4, 3, 3, 3}, 1, {}, {}, {1, 1}, {1, 1}, {}};
    const auto w = test::seededFloats(108, 5);
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, -1, -1});
    b.initializer("w", c.w, w);
    b.node("Conv", {"x", "w"}, {"y"}).ints("pads", {1, 1, 1, 1});
    b.output("y");
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    for (const Shape& xs : {Shape{1, 3, 6, 6}, Shape{2, 3, 5, 7}, Shape{1, 3, 6, 6}}) {
        const auto x = test::seededFloats(static_cast<size_t>(shapeElementCount(xs)), 6);
        ConvCase cs = c;
        cs.x = xs;
        Shape outShape;
        const auto expected = test::referenceConv(cs, x, w, {}, outShape, false);
        auto out = (*exec)->run({{"x", floats(xs, x)}});
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_EQ((*out)[0].second.shape(), outShape);
        test::expectNear((*out)[0].second, expected, 1e-4f);
    }
}

// A 3x3 stride-1 layer of 64 channels on a 16x16 map with kept weights runs as oneDNN's Winograd convolution,
// in a channel-blocked layout that the stride-2 layer after it reads as is. Both must still be the convolution
// (Winograd's rounding differs from the direct kernel's by far less than 1e-4), on the first run and on the
// second, which uses the transformed weights kept from the first.
TEST(ConvTest, WinogradLayerAndTheLayerReadingItsBlockedOutputMatchTheReference) {
    const ConvCase first{{1, 64, 16, 16}, {64, 64, 3, 3}, 1, {}, {}, {1, 1}, {1, 1}, {}};
    const ConvCase second{{1, 64, 16, 16}, {32, 64, 3, 3}, 1, {2, 2}, {}, {1, 1}, {1, 1}, {}};
    const auto x = test::seededFloats(64 * 16 * 16, 7);
    const auto w1 = test::seededFloats(64 * 64 * 9, 8);
    const auto w2 = test::seededFloats(32 * 64 * 9, 9);
    test::ModelBuilder b;
    b.input("x", DataType::Float, first.x);
    b.initializer("w1", first.w, w1);
    b.initializer("w2", second.w, w2);
    b.node("Conv", {"x", "w1"}, {"h"}).ints("pads", {1, 1, 1, 1});
    b.node("Conv", {"h", "w2"}, {"y"}).ints("pads", {1, 1, 1, 1}).ints("strides", {2, 2});
    b.output("y");
    auto model = b.load();
    Shape hShape, yShape;
    const auto h = test::referenceConv(first, x, w1, {}, hShape, false);
    const auto expected = test::referenceConv(second, h, w2, {}, yShape, false);
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec);
    for (int run = 0; run < 2; ++run) {
        auto out = (*exec)->run({{"x", floats(first.x, x)}});
        ASSERT_TRUE(out) << out.status().message();
        EXPECT_EQ((*out)[0].second.shape(), yShape);
        test::expectNear((*out)[0].second, expected, 1e-4f);
    }
}

TEST(ConvTest, Float16AndDoubleGoThroughFloat) {
    for (DataType dt : {DataType::Float16, DataType::Double}) {
        Tensor x = Tensor::fromVector<float>(DataType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
        Tensor w = Tensor::fromVector<float>(DataType::Float, {1, 1, 1, 1}, {2});
        auto y = test::runOne(NodeSpec("Conv", {{"x", fromFloat(x, dt)}, {"w", fromFloat(w, dt)}}));
        ASSERT_TRUE(y) << y.status().message();
        EXPECT_EQ(y->dtype(), dt);
        test::expectNear(*y, {2, 4, 6, 8});
    }
}

TEST(ConvTest, ChannelMismatchFailsNamingTheNode) {
    auto y = test::runOne(NodeSpec(
        "Conv", {{"x", floats({1, 2, 3, 3}, std::vector<float>(18))}, {"w", floats({1, 3, 1, 1}, {1, 1, 1})}}));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("Op (Conv)"), std::string::npos) << y.status().message();
}

TEST(ConvTest, BadAutoPadIsRefusedWhenTheExecutorIsBuilt) {
    auto y = test::runOne(NodeSpec("Conv", {{"x", floats({1, 1, 2}, {1, 2})}, {"w", floats({1, 1, 1}, {1})}}, {}, 17,
                                   [](test::NodeBuilder& n) { n.s("auto_pad", "SAME"); }));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("auto_pad"), std::string::npos) << y.status().message();
}

// A squeeze-excite gate is folded into the weights in their reordered layout, one pass over runs of floats of
// one input channel; a layout that blocks the input channels has no such runs (the plain weights are scaled).
TEST(WeightLayoutTest, InputChannelRunsFollowTheLayout) {
    using tag = dnnl::memory::format_tag;
    const auto desc = [](const dnnl::memory::dims& dims, tag layout) {
        return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, layout);
    };
    using Runs = std::pair<int64_t, int64_t>;
    EXPECT_EQ(inputChannelRuns(desc({80, 480, 1, 1}, tag::oihw)), Runs(1, 480));
    EXPECT_EQ(inputChannelRuns(desc({16, 24, 3, 3}, tag::oihw)), Runs(9, 24));
    EXPECT_EQ(inputChannelRuns(desc({80, 480, 1, 1}, tag::Acdb32a)), Runs(32, 480));  // O padded to 96
    EXPECT_EQ(inputChannelRuns(desc({16, 24, 3, 3}, tag::Acdb16a)), Runs(16, 24));
    EXPECT_EQ(inputChannelRuns(desc({16, 24, 3, 3}, tag::ohwi)), Runs(1, 24));       // channel = offset % 24
    EXPECT_EQ(inputChannelRuns(desc({32, 32, 3, 3}, tag::OIhw16i16o)), Runs(0, 0));  // blocks the input channels
    EXPECT_EQ(inputChannelRuns(desc({80, 480, 1, 1}, tag::ohwi)), Runs(1, 480));     // 1x1: ohwi is oihw
}

}  // namespace
}  // namespace ql
