#include "core/exec/kernels/grid_sample.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// A 2 x 3 plane 0..5.
const Tensor kPlane = floats({1, 1, 2, 3}, {0, 1, 2, 3, 4, 5});

Result<Tensor> gridSample(const Tensor& grid, int64_t opset, const std::function<void(NodeBuilder&)>& attrs) {
    return runOne(NodeSpec("GridSample", {{"x", kPlane}, {"grid", grid}}, {}, opset, attrs));
}

}  // namespace

TEST(GridSampleTest, AlignedCornersAtPixelCentresReproduceTheInput) {
    // With align_corners, -1 and 1 are the centres of the edge pixels.
    const Tensor grid = floats({1, 2, 3, 2}, {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1});
    for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
        auto y = gridSample(grid, 16, [&](NodeBuilder& n) { n.s("mode", mode).i("align_corners", 1); });
        ASSERT_TRUE(y) << y.status().message();
        expectNear(*y, {0, 1, 2, 3, 4, 5});
    }
}

TEST(GridSampleTest, BilinearBetweenPixelsAndPaddingOutside) {
    // Without align_corners, (0, 0) maps to x = 1, y = 0.5: halfway between pixels 1 and 4.
    const Tensor centre = floats({1, 1, 1, 2}, {0, 0});
    auto y = gridSample(centre, 16, [](NodeBuilder&) {});
    ASSERT_TRUE(y) << y.status().message();
    expectNear(*y, {2.5f});  // rows 1 and 4 averaged
    // Far right of the plane: zeros padding reads nothing, border the last column.
    const Tensor outside = floats({1, 1, 1, 2}, {3, -1});
    auto zeros = gridSample(outside, 16, [](NodeBuilder& n) { n.i("align_corners", 1); });
    auto border = gridSample(outside, 16, [](NodeBuilder& n) { n.i("align_corners", 1).s("padding_mode", "border"); });
    auto reflection =
        gridSample(outside, 16, [](NodeBuilder& n) { n.i("align_corners", 1).s("padding_mode", "reflection"); });
    ASSERT_TRUE(zeros && border && reflection);
    expectNear(*zeros, {0});
    expectNear(*border, {2});
    expectNear(*reflection, {0});  // x = 4 mirrors at 2 to 0
}

TEST(GridSampleTest, Opset20NamesTheModesLinearAndCubic) {
    const Tensor grid = floats({1, 1, 1, 2}, {0, 0});
    auto linear = gridSample(grid, 20, [](NodeBuilder& n) { n.s("mode", "linear"); });
    ASSERT_TRUE(linear) << linear.status().message();
    expectNear(*linear, {2.5f});
    auto bad = gridSample(grid, 20, [](NodeBuilder& n) { n.s("mode", "area"); });
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.status().message().find("mode 'area' is not linear (bilinear), nearest or cubic (bicubic)"),
              std::string::npos);
}

}  // namespace ql::test
