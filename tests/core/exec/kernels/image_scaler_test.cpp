#include "core/exec/kernels/image_scaler.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

TEST(ImageScalerTest, ScalesAndAddsAPerChannelBias) {
    auto y = runOne(NodeSpec("ImageScaler", {{"x", floats({1, 2, 1, 2}, {1, 2, 3, 4})}}, {}, 9, [](NodeBuilder& n) {
        n.f("scale", 2.0f).floats("bias", {10.0f, -1.0f});
    }));
    ASSERT_TRUE(y) << y.status().message();
    expectNear(*y, {12, 14, 5, 7});
}

TEST(ImageScalerTest, ABiasPerWrongChannelCountIsAnError) {
    auto y = runOne(NodeSpec("ImageScaler", {{"x", floats({1, 2, 1, 1}, {1, 2})}}, {}, 9, [](NodeBuilder& n) {
        n.floats("bias", {1.0f, 2.0f, 3.0f});
    }));
    ASSERT_FALSE(y);
    EXPECT_NE(y.status().message().find("bias has 3 values for 2 channels"), std::string::npos);
}

}  // namespace ql::test
