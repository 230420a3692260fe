#include "core/exec/kernels/fast_swish.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {
namespace {

double swish(double x) {
    return x / (1.0 + std::exp(-x));
}

// Values across exp's clamping range, an odd count (the masked tail) and more than one parallel chunk.
TEST(FastSwishTest, MatchesTheExactFunctionToFloatPrecision) {
    if (!fastSwishAvailable()) GTEST_SKIP() << "no AVX-512 on this CPU";
    const int64_t n = 2 * kElementwiseGrain + 37;
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = -120.0f + 240.0f * static_cast<float>(i) / n;
    x[0] = 0.0f;
    x[1] = -0.0f;
    x[2] = 1e-30f;
    std::vector<float> y = x;
    swishInPlace(y.data(), n);
    for (size_t i = 0; i < x.size(); ++i) {
        const double expected = swish(x[i]);
        ASSERT_NEAR(y[i], expected, 2.5e-7 * std::abs(expected) + 1e-35) << "x = " << x[i];
    }
}

// The fused Conv -> Swish and the Sigmoid and Mul kernels one after the other must round alike: the export
// check compares a fused run with the INT8 simulation's node-by-node one to the bit.
TEST(FastSwishTest, SwishIsExactlyXTimesTheSigmoid) {
    if (!fastSwishAvailable()) GTEST_SKIP() << "no AVX-512 on this CPU";
    const int64_t n = kElementwiseGrain + 21;
    std::vector<float> x(static_cast<size_t>(n)), s(x.size());
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = std::sin(0.37f * static_cast<float>(i)) * 12.0f;
    sigmoidFloats(x.data(), s.data(), n);
    std::vector<float> y = x;
    swishInPlace(y.data(), n);
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], x[i] * s[i]) << "x = " << x[i];
}

TEST(FastSwishTest, NanStaysNanAndLargeValuesPassThrough) {
    if (!fastSwishAvailable()) GTEST_SKIP() << "no AVX-512 on this CPU";
    std::vector<float> v = {std::numeric_limits<float>::quiet_NaN(), 1e30f, std::numeric_limits<float>::infinity()};
    std::vector<float> s(v.size());
    sigmoidFloats(v.data(), s.data(), static_cast<int64_t>(v.size()));
    EXPECT_TRUE(std::isnan(s[0]));
    EXPECT_EQ(s[1], 1.0f);
    swishInPlace(v.data(), static_cast<int64_t>(v.size()));
    EXPECT_TRUE(std::isnan(v[0]));
    EXPECT_EQ(v[1], 1e30f);
    EXPECT_EQ(v[2], std::numeric_limits<float>::infinity());
}

}  // namespace
}  // namespace ql
