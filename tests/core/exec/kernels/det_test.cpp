#include "core/exec/kernels/det.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

TEST(DetTest, SingleAndBatchedMatricesWithPivoting) {
    auto two = runOne(NodeSpec("Det", {{"x", floats({2, 2}, {1, 2, 3, 4})}}, {}, 11));
    ASSERT_TRUE(two) << two.status().message();
    EXPECT_EQ(two->shape(), Shape{});
    expectNear(*two, {-2});
    // [[0, 1, 0], [1, 0, 0], [0, 0, 3]] needs a row swap: det -3; a singular one gives 0.
    auto batch = runOne(
        NodeSpec("Det", {{"x", floats({2, 3, 3}, {0, 1, 0, 1, 0, 0, 0, 0, 3, 1, 2, 3, 2, 4, 6, 0, 1, 1})}}, {}, 11));
    ASSERT_TRUE(batch) << batch.status().message();
    EXPECT_EQ(batch->shape(), (Shape{2}));
    expectNear(*batch, {-3, 0});
}

TEST(DetTest, ANonSquareInputIsAnError) {
    auto out = runOne(NodeSpec("Det", {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}}, {}, 11));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("X must be [..., M, M], not [2,3]"), std::string::npos);
}

}  // namespace ql::test
