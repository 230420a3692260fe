#include "core/exec/kernels/deform_conv.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

TEST(DeformConvTest, ZeroOffsetsGiveTheRegularConvolution) {
    const Shape xShape{2, 4, 6, 5}, wShape{6, 2, 3, 2};
    const Tensor x = floats(xShape, seededFloats(static_cast<size_t>(shapeElementCount(xShape)), 1));
    const Tensor w = floats(wShape, seededFloats(static_cast<size_t>(shapeElementCount(wShape)), 2));
    const Tensor b = floats({6}, seededFloats(6, 3));
    auto attrs = [](NodeBuilder& n) {
        n.ints("strides", {2, 1}).ints("pads", {1, 0, 1, 1}).ints("dilations", {1, 2}).i("group", 2);
    };
    auto conv = runOne(NodeSpec("Conv", {{"x", x}, {"w", w}, {"b", b}}, {}, 19, attrs));
    ASSERT_TRUE(conv) << conv.status().message();
    const Shape out = conv->shape();
    const Tensor offsets = Tensor::zeros(DataType::Float, {2, 2 * 2 * 3 * 2, out[2], out[3]});
    auto deform =
        runOne(NodeSpec("DeformConv", {{"x", x}, {"w", w}, {"offset", offsets}, {"b", b}}, {}, 19, [&](NodeBuilder& n) {
            attrs(n);
            n.i("offset_group", 2);
        }));
    ASSERT_TRUE(deform) << deform.status().message();
    EXPECT_EQ(deform->shape(), out);
    expectNear(*deform, conv->toFloats(), 1e-4f);
}

TEST(DeformConvTest, OffsetsSampleBetweenPixelsAndTheMaskScales) {
    // A 1 x 1 kernel of weight 1 reading half a pixel to the right: (1 + 2) / 2, (2 + 0) / 2, ...
    const Tensor x = floats({1, 1, 2, 2}, {1, 2, 3, 4}), w = floats({1, 1, 1, 1}, {1});
    const Tensor offset = floats({1, 2, 2, 2}, {0, 0, 0, 0, 0.5f, 0.5f, 0.5f, 0.5f});
    auto shifted = runOne(NodeSpec("DeformConv", {{"x", x}, {"w", w}, {"offset", offset}}, {}, 19));
    ASSERT_TRUE(shifted) << shifted.status().message();
    expectNear(*shifted, {1.5f, 1.0f, 3.5f, 2.0f});
    auto masked = runOne(
        NodeSpec("DeformConv",
                 {{"x", x}, {"w", w}, {"offset", offset}, {"", Tensor()}, {"mask", floats({1, 1, 2, 2}, {2, 2, 0, 1})}},
                 {}, 19));
    ASSERT_TRUE(masked) << masked.status().message();
    expectNear(*masked, {3.0f, 2.0f, 0.0f, 2.0f});
}

TEST(DeformConvTest, AnOffsetOfTheWrongShapeIsAnErrorNamingTheNode) {
    auto out = runOne(NodeSpec("DeformConv",
                               {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})},
                                {"w", floats({1, 1, 1, 1}, {1})},
                                {"offset", floats({1, 2, 1, 1}, {0, 0})}},
                               {}, 19));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (DeformConv): offset must be [1,2,2,2]"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
