#include "core/exec/kernels/max_unpool.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

TEST(MaxUnpoolTest, SpecExampleWithAndWithoutOutputShape) {
    const Tensor x = floats({1, 1, 2, 2}, {1, 2, 3, 4});
    const Tensor i = int64s({1, 1, 2, 2}, {5, 7, 13, 15});
    auto attrs = [](NodeBuilder& n) { n.ints("kernel_shape", {2, 2}).ints("strides", {2, 2}); };
    auto plain = runOne(NodeSpec("MaxUnpool", {{"x", x}, {"i", i}}, {}, 11, attrs));
    ASSERT_TRUE(plain) << plain.status().message();
    EXPECT_EQ(plain->shape(), (Shape{1, 1, 4, 4}));
    expectNear(*plain, {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
    auto shaped =
        runOne(NodeSpec("MaxUnpool", {{"x", x}, {"i", i}, {"shape", int64s({4}, {1, 1, 5, 5})}}, {}, 11, attrs));
    ASSERT_TRUE(shaped) << shaped.status().message();
    EXPECT_EQ(shaped->shape(), (Shape{1, 1, 5, 5}));
    // Index 7 is row 1, column 3 of the 4 x 4 result, which keeps its place in the padded 5 x 5 output.
    const std::vector<float> padded = shaped->toFloats();
    EXPECT_EQ(padded[1 * 5 + 3], 2.0f);
    EXPECT_EQ(padded[3 * 5 + 3], 4.0f);
}

TEST(MaxUnpoolTest, AnIndexOutsideTheOutputIsAnError) {
    auto out = runOne(NodeSpec("MaxUnpool", {{"x", floats({1, 1, 1, 1}, {1})}, {"i", int64s({1, 1, 1, 1}, {9})}}, {},
                               11, [](NodeBuilder& n) {
                                   n.ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
                               }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("index 9 is outside the output [1,1,2,2]"), std::string::npos);
}

}  // namespace ql::test
