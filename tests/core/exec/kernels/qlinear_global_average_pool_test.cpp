#include "core/exec/kernels/qlinear_global_average_pool.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/qlinear_contrib_test_util.h"

namespace ql::test {

TEST(QLinearGlobalAveragePoolTest, MeanOfEachChannelRequantizedInBothLayouts) {
    // Channel 0 {10, 20, 30, 41} and channel 1 {0, 0, 0, 1}, zero points 10, scales 1.
    const NamedTensors nchw{{"x", uint8s({1, 2, 2, 2}, {10, 20, 30, 41, 0, 0, 0, 1})},
                            {"sx", floats({}, {1})},
                            {"zx", uint8s({}, {10})},
                            {"sy", floats({}, {1})},
                            {"zy", uint8s({}, {10})}};
    auto y = runContrib("QLinearGlobalAveragePool", nchw, DataType::UInt8);
    ASSERT_TRUE(y) << y.status().message();
    EXPECT_EQ(y->shape(), (Shape{1, 2, 1, 1}));
    // (101 - 40) / 4 = 15.25 -> 15, + 10 = 25; (1 - 40) / 4 = -9.75 -> -10, + 10 = 0.
    EXPECT_EQ(valuesOf<uint8_t>(*y), (std::vector<uint8_t>{25, 0}));
    const NamedTensors nhwc{{"x", uint8s({1, 2, 2, 2}, {10, 0, 20, 0, 30, 0, 41, 1})},
                            {"sx", floats({}, {1})},
                            {"zx", uint8s({}, {10})},
                            {"sy", floats({}, {1})},
                            {"zy", uint8s({}, {10})}};
    auto last =
        runContrib("QLinearGlobalAveragePool", nhwc, DataType::UInt8, [](NodeBuilder& n) { n.i("channels_last", 1); });
    ASSERT_TRUE(last) << last.status().message();
    EXPECT_EQ(last->shape(), (Shape{1, 1, 1, 2}));
    EXPECT_EQ(valuesOf<uint8_t>(*last), (std::vector<uint8_t>{25, 0}));
}

}  // namespace ql::test
