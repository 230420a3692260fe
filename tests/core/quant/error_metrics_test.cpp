#include "core/quant/error_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace ql {
namespace {

TEST(ErrorMetrics, IdenticalValuesAreExact) {
    ErrorAccumulator errors;
    const std::vector<float> v = {1.0f, -2.0f, 3.0f};
    errors.add(v, v);
    const ErrorMetrics m = errors.metrics();
    EXPECT_TRUE(std::isinf(m.sqnrDb) && m.sqnrDb > 0);
    EXPECT_EQ(m.cosine, 1.0);
    EXPECT_EQ(m.nonFinite, 0);
}

// A quantized NaN where FP32 is finite (0/0 after a norm quantized to zero) was skipped, so an all-NaN output
// read as exact (+inf dB): it is the worst error.
TEST(ErrorMetrics, AQuantizedNanWhereFp32IsFiniteIsTheWorstErrorNotASkippedPair) {
    constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    ErrorAccumulator errors;
    errors.add(std::vector<float>{0.6f, 0.8f}, std::vector<float>{nan, nan});
    const ErrorMetrics m = errors.metrics();
    EXPECT_TRUE(std::isinf(m.sqnrDb) && m.sqnrDb < 0) << m.sqnrDb;
    EXPECT_EQ(m.cosine, 0.0);
    EXPECT_EQ(m.nonFinite, 2);
    EXPECT_EQ(m.count, 2);
}

TEST(ErrorMetrics, ANonFiniteReferenceIsSkipped) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    ErrorAccumulator errors;
    errors.add(std::vector<float>{inf, 1.0f}, std::vector<float>{inf, 1.0f});
    const ErrorMetrics m = errors.metrics();
    EXPECT_EQ(m.count, 1);
    EXPECT_EQ(m.nonFinite, 0);
    EXPECT_TRUE(std::isinf(m.sqnrDb) && m.sqnrDb > 0);
}

}  // namespace
}  // namespace ql
