#include "core/exec/kernels/compress.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

const Tensor kGrid = floats({3, 2}, {1, 2, 3, 4, 5, 6});

}  // namespace

TEST(CompressTest, SpecExamplesAlongAnAxisAndFlattened) {
    auto rows = runOne(NodeSpec("Compress", {{"x", kGrid}, {"c", bools({3}, {0, 1, 1})}}, {}, 11,
                                [](NodeBuilder& n) { n.i("axis", 0); }));
    ASSERT_TRUE(rows) << rows.status().message();
    EXPECT_EQ(rows->shape(), (Shape{2, 2}));
    expectNear(*rows, {3, 4, 5, 6});
    auto columns = runOne(NodeSpec("Compress", {{"x", kGrid}, {"c", bools({2}, {0, 1})}}, {}, 11,
                                   [](NodeBuilder& n) { n.i("axis", -1); }));
    ASSERT_TRUE(columns) << columns.status().message();
    expectNear(*columns, {2, 4, 6});
    // No axis: the flattened input; a condition shorter than it keeps only its own positions.
    auto flat = runOne(NodeSpec("Compress", {{"x", kGrid}, {"c", bools({5}, {0, 1, 0, 0, 1})}}, {}, 11));
    ASSERT_TRUE(flat) << flat.status().message();
    EXPECT_EQ(flat->shape(), (Shape{2}));
    expectNear(*flat, {2, 5});
}

TEST(CompressTest, AConditionLongerThanTheAxisIsAnError) {
    auto out = runOne(NodeSpec("Compress", {{"x", kGrid}, {"c", bools({4}, {1, 1, 1, 1})}}, {}, 11,
                               [](NodeBuilder& n) { n.i("axis", 0); }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("the condition has 4 values for an axis of 3"), std::string::npos);
}

}  // namespace ql::test
