#include "core/exec/kernels/stft.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

TEST(StftTest, FramesOfAConstantSignalWithAndWithoutAWindow) {
    const Tensor signal = floats({1, 8, 1}, std::vector<float>(8, 1.0f));
    auto plain = runOne(NodeSpec(
        "STFT", {{"signal", signal}, {"step", int64s({}, {4})}, {"", Tensor()}, {"length", int64s({}, {4})}}, {}, 17));
    ASSERT_TRUE(plain) << plain.status().message();
    EXPECT_EQ(plain->shape(), (Shape{1, 2, 3, 2}));
    expectNear(*plain, {4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0}, 1e-6f);
    auto windowed = runOne(NodeSpec(
        "STFT", {{"signal", signal}, {"step", int64s({}, {2})}, {"window", floats({4}, {0, 1, 1, 0})}}, {}, 17));
    ASSERT_TRUE(windowed) << windowed.status().message();
    EXPECT_EQ(windowed->shape(), (Shape{1, 3, 3, 2}));
    EXPECT_NEAR(windowed->toFloats()[0], 2.0f, 1e-6f);
}

TEST(StftTest, AWindowOfAnotherLengthIsAnError) {
    auto out = runOne(NodeSpec("STFT",
                               {{"signal", floats({1, 8, 1}, std::vector<float>(8, 1.0f))},
                                {"step", int64s({}, {2})},
                                {"window", floats({3}, {1, 1, 1})},
                                {"length", int64s({}, {4})}},
                               {}, 17));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("equal to the window's length"), std::string::npos) << out.status().message();
}

}  // namespace ql::test
