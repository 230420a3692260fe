#include "core/exec/kernels/lp_pool.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

Tensor pool(const std::string& op, const Tensor& x, int64_t opset, std::function<void(NodeBuilder&)> attrs) {
    auto y = runOne(NodeSpec(op, {{"x", x}}, {}, opset, std::move(attrs)));
    EXPECT_TRUE(y) << y.status().message();
    return y ? *y : Tensor();
}

const Tensor kLine = floats({1, 1, 4}, {1, 2, 3, 4});

}  // namespace

TEST(LpPoolTest, DefaultP2OverAWindow) {
    const Tensor y = pool("LpPool", kLine, 11, [](NodeBuilder& n) { n.ints("kernel_shape", {2}); });
    EXPECT_EQ(y.shape(), (Shape{1, 1, 3}));
    expectNear(y, {std::sqrt(5.0f), std::sqrt(13.0f), 5.0f});
}

TEST(LpPoolTest, P1WithPadsAndStrides) {
    const Tensor y = pool("LpPool", kLine, 11, [](NodeBuilder& n) {
        n.ints("kernel_shape", {2}).ints("pads", {1, 1}).i("p", 1);
    });
    expectNear(y, {1, 3, 5, 7, 4});
    const Tensor s = pool("LpPool", floats({1, 1, 2, 2}, {1, -2, 3, -4}), 11, [](NodeBuilder& n) {
        n.ints("kernel_shape", {2, 2}).ints("strides", {2, 2}).i("p", 3);
    });
    expectNear(s, {std::cbrt(1.0f + 8 + 27 + 64)});
}

TEST(LpPoolTest, Opset18DilationsAndCeilMode) {
    const Tensor d =
        pool("LpPool", kLine, 18, [](NodeBuilder& n) { n.ints("kernel_shape", {2}).ints("dilations", {2}); });
    expectNear(d, {std::sqrt(10.0f), std::sqrt(20.0f)});
    const Tensor c = pool("LpPool", floats({1, 1, 5}, {1, 2, 3, 4, 5}), 18,
                          [](NodeBuilder& n) { n.ints("kernel_shape", {2}).ints("strides", {2}).i("ceil_mode", 1); });
    EXPECT_EQ(c.shape(), (Shape{1, 1, 3}));
    expectNear(c, {std::sqrt(5.0f), 5.0f, 5.0f});
}

TEST(LpPoolTest, GlobalLpPoolOverEveryAxisAfterChannels) {
    const Tensor y = pool("GlobalLpPool", floats({1, 2, 2, 2}, {3, 0, 0, 4, 1, 1, 1, 1}), 2, [](NodeBuilder&) {});
    EXPECT_EQ(y.shape(), (Shape{1, 2, 1, 1}));
    expectNear(y, {5, 2});
    const Tensor p1 = pool("GlobalLpPool", floats({1, 1, 3}, {-1, 2, -3}), 2, [](NodeBuilder& n) { n.i("p", 1); });
    expectNear(p1, {6});
}

}  // namespace ql::test
