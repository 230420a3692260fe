// MeanVarianceNormalization, LpNormalization, RMSNormalization and GroupNormalization.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

Tensor runOk(const NodeSpec& spec) {
    auto y = runOne(spec);
    EXPECT_TRUE(y) << y.status().message();
    return y ? *y : Tensor();
}

// Naive group normalization of x [n, c, size] with per-channel scale and bias.
std::vector<float> referenceGroupNorm(const std::vector<float>& x, int64_t n, int64_t c, int64_t size, int64_t groups,
                                      const std::vector<float>& scale, const std::vector<float>& bias, float eps) {
    std::vector<float> y(x.size());
    const int64_t per = c / groups * size;
    for (int64_t b = 0; b < n; ++b)
        for (int64_t g = 0; g < groups; ++g) {
            const int64_t base = (b * c + g * (c / groups)) * size;
            double mean = 0, var = 0;
            for (int64_t i = 0; i < per; ++i) mean += x[static_cast<size_t>(base + i)];
            mean /= static_cast<double>(per);
            for (int64_t i = 0; i < per; ++i) var += std::pow(x[static_cast<size_t>(base + i)] - mean, 2);
            var /= static_cast<double>(per);
            for (int64_t i = 0; i < per; ++i) {
                const auto k = static_cast<size_t>(base + i), ch = static_cast<size_t>((base + i) / size % c);
                y[k] = static_cast<float>((x[k] - mean) / std::sqrt(var + eps) * scale[ch] + bias[ch]);
            }
        }
    return y;
}

}  // namespace

TEST(MeanVarianceNormalizationTest, DefaultAxesNormalizeEachChannel) {
    // [1, 2, 1, 2]: channel 0 {1, 3} (mean 2, std 1), channel 1 {2, 6} (mean 4, std 2).
    expectNear(runOk(NodeSpec("MeanVarianceNormalization", {{"x", floats({1, 2, 1, 2}, {1, 3, 2, 6})}})),
               {-1, 1, -1, 1});
}

TEST(MeanVarianceNormalizationTest, GivenAxesAndAConstantLineStaysFinite) {
    const Tensor x = floats({2, 3}, {1, 2, 3, 5, 5, 5});
    const Tensor y =
        runOk(NodeSpec("MeanVarianceNormalization", {{"x", x}}, {}, 13, [](NodeBuilder& n) { n.ints("axes", {1}); }));
    const float s = std::sqrt(2.0f / 3.0f);
    expectNear(y, {-1 / s, 0, 1 / s, 0, 0, 0});
}

TEST(LpNormalizationTest, L2AndL1AlongAnAxisAndZeroLinesStayZero) {
    expectNear(runOk(NodeSpec("LpNormalization", {{"x", floats({2, 2}, {3, 4, 0, 0})}})), {0.6f, 0.8f, 0, 0});
    expectNear(runOk(NodeSpec("LpNormalization", {{"x", floats({2, 2}, {1, 3, -1, 1})}}, {}, 17,
                              [](NodeBuilder& n) { n.i("axis", 0).i("p", 1); })),
               {0.5f, 0.75f, -0.5f, 0.25f});
    auto bad =
        runOne(NodeSpec("LpNormalization", {{"x", floats({2}, {1, 2})}}, {}, 17, [](NodeBuilder& n) { n.i("p", 3); }));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.status().message().find("p must be 1 or 2, not 3"), std::string::npos);
}

TEST(RmsNormalizationTest, NormalizesTheTrailingAxesAndScales) {
    // Row {3, 4}: rms = sqrt(12.5); row {0, 0} stays 0 thanks to epsilon.
    const Tensor y = runOk(
        NodeSpec("RMSNormalization", {{"x", floats({2, 2}, {3, 4, 0, 0})}, {"scale", floats({2}, {1, 2})}}, {}, 23));
    const float rms = std::sqrt(12.5f + 1e-5f);
    expectNear(y, {3 / rms, 8 / rms, 0, 0});
    const Tensor z =
        runOk(NodeSpec("RMSNormalization", {{"x", floats({1, 2, 2}, {1, 1, 1, 1})}, {"scale", floats({1}, {3})}}, {},
                       23, [](NodeBuilder& n) { n.i("axis", 1).f("epsilon", 0.0f); }));
    expectNear(z, {3, 3, 3, 3});
}

TEST(GroupNormalizationTest, PerChannelScaleOfOpset21AndPerGroupOfOpset18) {
    const int64_t n = 2, c = 4, size = 3, groups = 2;
    const std::vector<float> x = seededFloats(static_cast<size_t>(n * c * size), 11, -2.0f, 2.0f);
    const std::vector<float> scale{1.0f, 2.0f, 0.5f, -1.0f}, bias{0.0f, 0.5f, -1.0f, 2.0f};
    auto node = [&](int64_t opset, const std::vector<float>& s, const std::vector<float>& b) {
        const auto k = static_cast<int64_t>(s.size());
        return NodeSpec("GroupNormalization",
                        {{"x", floats({n, c, size}, x)}, {"scale", floats({k}, s)}, {"bias", floats({k}, b)}}, {},
                        opset, [](NodeBuilder& nb) { nb.i("num_groups", 2).f("epsilon", 1e-5f); });
    };
    expectNear(runOk(node(21, scale, bias)), referenceGroupNorm(x, n, c, size, groups, scale, bias, 1e-5f));
    const std::vector<float> groupScale{2.0f, -1.0f}, groupBias{1.0f, 0.0f};
    expectNear(runOk(node(18, groupScale, groupBias)),
               referenceGroupNorm(x, n, c, size, groups, {2, 2, -1, -1}, {1, 1, 0, 0}, 1e-5f));
    auto bad = runOne(node(21, {1, 2, 3}, {0, 0, 0}));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.status().message().find("scale has 3 values; it needs one per channel (4) or per group (2)"),
              std::string::npos)
        << bad.status().message();
}

}  // namespace ql::test
