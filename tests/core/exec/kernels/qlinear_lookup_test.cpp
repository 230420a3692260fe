#include "core/exec/kernels/qlinear_lookup.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/qlinear_contrib_test_util.h"

namespace ql::test {

TEST(QLinearLookupTest, SigmoidAndLeakyReluThroughDequantizeAndQuantize) {
    // x in int8 with scale 0.1: {-20, 0, 20} are -2, 0, 2; y scale 1/256, zero -128.
    const NamedTensors in{{"x", int8s({3}, {-20, 0, 20})},
                          {"sx", floats({}, {0.1f})},
                          {"zx", int8s({}, {0})},
                          {"sy", floats({}, {1.0f / 256})},
                          {"zy", int8s({}, {-128})}};
    auto sigmoid = runContrib("QLinearSigmoid", in, DataType::Int8);
    ASSERT_TRUE(sigmoid) << sigmoid.status().message();
    std::vector<int8_t> expected;
    for (float v : {-2.0f, 0.0f, 2.0f})
        expected.push_back(
            static_cast<int8_t>(std::clamp(std::nearbyint(256.0f / (1.0f + std::exp(-v))) - 128.0f, -128.0f, 127.0f)));
    EXPECT_EQ(valuesOf<int8_t>(*sigmoid), expected);
    const NamedTensors relu{{"x", int8s({2}, {-100, 50})},
                            {"sx", floats({}, {1.0f})},
                            {"zx", int8s({}, {0})},
                            {"sy", floats({}, {1.0f})},
                            {"zy", int8s({}, {0})}};
    auto leaky = runContrib("QLinearLeakyRelu", relu, DataType::Int8, [](NodeBuilder& n) { n.f("alpha", 0.1f); });
    ASSERT_TRUE(leaky) << leaky.status().message();
    EXPECT_EQ(valuesOf<int8_t>(*leaky), (std::vector<int8_t>{-10, 50}));
}

}  // namespace ql::test
