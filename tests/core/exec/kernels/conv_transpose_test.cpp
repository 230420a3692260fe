#include <gtest/gtest.h>

#include "tests/core/exec/kernels/conv_reference.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::ConvCase;
using test::floats;
using test::NodeSpec;

void expectMatchesReference(const ConvCase& c, bool withBias) {
    const auto x = test::seededFloats(static_cast<size_t>(shapeElementCount(c.x)), 11);
    const auto w = test::seededFloats(static_cast<size_t>(shapeElementCount(c.w)), 12);
    const int64_t m = c.w[1] * c.group;
    const auto b = withBias ? test::seededFloats(static_cast<size_t>(m), 13) : std::vector<float>();
    Shape outShape;
    const auto expected = test::referenceConv(c, x, w, b, outShape, true);
    NamedTensors inputs = {{"x", floats(c.x, x)}, {"w", floats(c.w, w)}};
    if (withBias) inputs.emplace_back("b", floats({m}, b));
    auto y = test::runOne(NodeSpec("ConvTranspose", inputs, {}, 17, [c](test::NodeBuilder& n) {
        n.i("group", c.group);
        if (!c.strides.empty()) n.ints("strides", c.strides);
        if (!c.dilations.empty()) n.ints("dilations", c.dilations);
        if (!c.outputPadding.empty()) n.ints("output_padding", c.outputPadding);
        Shape pads = c.padBegin;
        pads.insert(pads.end(), c.padEnd.begin(), c.padEnd.end());
        if (!pads.empty()) n.ints("pads", pads);
    }));
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), outShape);
    test::expectNear(*y, expected, 1e-4f);
}

TEST(ConvTransposeTest, HandComputedStride2ScattersTheKernel) {
    // x = [1, 2], w = [1, 1, 1], stride 2: [1,1,1] at 0 and [2,2,2] at 2 -> [1, 1, 3, 2, 2].
    auto y =
        test::runOne(NodeSpec("ConvTranspose", {{"x", floats({1, 1, 2}, {1, 2})}, {"w", floats({1, 1, 3}, {1, 1, 1})}},
                              {}, 17, [](test::NodeBuilder& n) { n.ints("strides", {2}); }));
    ASSERT_TRUE(y) << y.status().message();
    test::expectNear(*y, {1, 1, 3, 2, 2});
}

TEST(ConvTransposeTest, OutputShapeBeyondTheKernelsReachSplitsTheExtraCellsLikeTheSpec) {
    auto y = test::runOne(
        NodeSpec("ConvTranspose",
                 {{"x", floats({1, 1, 2}, {1, 2})}, {"w", floats({1, 1, 3}, {1, 1, 1})}, {"b", floats({1}, {10})}}, {},
                 17, [](test::NodeBuilder& n) {
                     n.ints("strides", {2});
                     n.ints("output_shape", {7});
                 }));
    ASSERT_TRUE(y) << y.status().message();
    // Full result [1,1,3,2,2] + bias; total padding -2 -> pads begin -1, end -1 (the spec's floor division).
    test::expectNear(*y, {10, 11, 11, 13, 12, 12, 10});
}

TEST(ConvTransposeTest, SameUpperKeepsInputTimesStride) {
    auto y =
        test::runOne(NodeSpec("ConvTranspose", {{"x", floats({1, 1, 2}, {1, 2})}, {"w", floats({1, 1, 3}, {1, 1, 1})}},
                              {}, 17, [](test::NodeBuilder& n) {
                                  n.ints("strides", {2});
                                  n.s("auto_pad", "SAME_UPPER");
                              }));
    ASSERT_TRUE(y) << y.status().message();
    // Full result [1,1,3,2,2], total padding 1, SAME_UPPER drops it at the end.
    test::expectNear(*y, {1, 1, 3, 2});
}

TEST(ConvTransposeTest, RandomGroupedStridedDilatedPaddedWithOutputPadding2D) {
    expectMatchesReference({{2, 4, 5, 4}, {4, 3, 3, 2}, 2, {2, 3}, {1, 2}, {1, 0}, {0, 2}, {1, 2}}, true);
}

TEST(ConvTransposeTest, Random1DAnd3D) {
    expectMatchesReference({{1, 3, 6}, {3, 2, 4}, 1, {3}, {1}, {2}, {1}, {0}}, false);
    expectMatchesReference({{1, 2, 3, 2, 3}, {2, 2, 2, 2, 2}, 1, {2, 1, 2}, {1, 2, 1}, {0, 1, 0}, {1, 0, 0}, {1, 0, 1}},
                           true);
}

TEST(ConvTransposeTest, WeightsNotMatchingTheInputChannelsFail) {
    auto y = test::runOne(
        NodeSpec("ConvTranspose", {{"x", floats({1, 2, 2}, {1, 2, 3, 4})}, {"w", floats({3, 1, 1}, {1, 1, 1})}}));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("Op (ConvTranspose)"), std::string::npos) << y.status().message();
}

}  // namespace
}  // namespace ql
