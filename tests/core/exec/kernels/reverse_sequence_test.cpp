#include "core/exec/kernels/reverse_sequence.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

const Tensor kGrid = floats({4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});

}  // namespace

TEST(ReverseSequenceTest, SpecExampleTimeMajor) {
    auto y = runOne(NodeSpec("ReverseSequence", {{"x", kGrid}, {"lens", int64s({4}, {4, 3, 2, 1})}}, {}, 10,
                             [](NodeBuilder& n) { n.i("time_axis", 0).i("batch_axis", 1); }));
    ASSERT_TRUE(y) << y.status().message();
    expectNear(*y, {12, 9, 6, 3, 8, 5, 2, 7, 4, 1, 10, 11, 0, 13, 14, 15});
}

TEST(ReverseSequenceTest, SpecExampleBatchMajorWithInt32Lengths) {
    const Tensor lens = Tensor::fromVector(DataType::Int32, {4}, std::vector<int32_t>{1, 2, 3, 4});
    auto y = runOne(NodeSpec("ReverseSequence", {{"x", kGrid}, {"lens", lens}}, {}, 10,
                             [](NodeBuilder& n) { n.i("time_axis", 1).i("batch_axis", 0); }));
    ASSERT_TRUE(y) << y.status().message();
    expectNear(*y, {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12});
}

TEST(ReverseSequenceTest, ALengthBeyondTheTimeAxisIsAnError) {
    auto y = runOne(NodeSpec("ReverseSequence", {{"x", kGrid}, {"lens", int64s({4}, {5, 1, 1, 1})}}, {}, 10));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("sequence length 5 is outside [0, 4]"), std::string::npos);
}

}  // namespace ql::test
