#include "core/exec/kernels/roi_align.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

Result<Tensor> roiAlign(int64_t opset, const std::function<void(NodeBuilder&)>& attrs) {
    std::vector<float> image(16);
    std::iota(image.begin(), image.end(), 0.0f);
    return runOne(NodeSpec(
        "RoiAlign",
        {{"x", floats({1, 1, 4, 4}, image)}, {"rois", floats({1, 4}, {0, 0, 4, 4})}, {"batch", int64s({1}, {0})}}, {},
        opset, [&](NodeBuilder& n) {
            n.i("output_height", 2).i("output_width", 2).i("sampling_ratio", 1);
            attrs(n);
        }));
}

}  // namespace

TEST(RoiAlignTest, HalfPixelAndOutputHalfPixelCoordinates) {
    // half_pixel samples at pixel corners 0.5 and 2.5: bilinear averages of 2 x 2 blocks.
    auto half = roiAlign(16, [](NodeBuilder&) {});
    ASSERT_TRUE(half) << half.status().message();
    EXPECT_EQ(half->shape(), (Shape{1, 1, 2, 2}));
    expectNear(*half, {2.5f, 4.5f, 10.5f, 12.5f});
    // Opset 10's coordinates (no offset) sample at 1 and 3; 3 is the last row and column.
    auto legacy = roiAlign(10, [](NodeBuilder&) {});
    ASSERT_TRUE(legacy) << legacy.status().message();
    expectNear(*legacy, {5, 7, 13, 15});
}

TEST(RoiAlignTest, MaxModeTakesTheLargestWeightedCorner) {
    auto max = roiAlign(16, [](NodeBuilder& n) { n.s("mode", "max"); });
    ASSERT_TRUE(max) << max.status().message();
    expectNear(*max, {1.25f, 1.75f, 3.25f, 3.75f});  // 0.25 x the largest of each 2 x 2 block
}

TEST(RoiAlignTest, ABatchIndexOutOfRangeIsAnError) {
    auto out = runOne(NodeSpec("RoiAlign",
                               {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})},
                                {"rois", floats({1, 4}, {0, 0, 1, 1})},
                                {"batch", int64s({1}, {1})}},
                               {}, 16));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("batch index 1 is out of range"), std::string::npos);
}

}  // namespace ql::test
