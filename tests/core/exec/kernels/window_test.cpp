#include "core/exec/kernels/window.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

Tensor window(const std::string& op, int64_t size, std::function<void(NodeBuilder&)> attrs = {}) {
    auto y = runOne(NodeSpec(op, {{"size", int64s({}, {size})}}, {DataType::Float}, 17, std::move(attrs)));
    EXPECT_TRUE(y) << y.status().message();
    return y ? *y : Tensor();
}

}  // namespace

TEST(WindowTest, PeriodicAndSymmetricHann) {
    expectNear(window("HannWindow", 4), {0.0f, 0.5f, 1.0f, 0.5f});
    expectNear(window("HannWindow", 5, [](NodeBuilder& n) { n.i("periodic", 0); }), {0.0f, 0.5f, 1.0f, 0.5f, 0.0f});
}

TEST(WindowTest, HammingAndBlackmanCoefficients) {
    const float a0 = 25.0f / 46.0f;
    expectNear(window("HammingWindow", 4), {a0 - (1 - a0), a0, a0 + (1 - a0), a0});
    const float quarter =
        0.42f - 0.5f * std::cos(std::numbers::pi_v<float> / 2) + 0.08f * std::cos(std::numbers::pi_v<float>);
    expectNear(window("BlackmanWindow", 4), {0.0f, quarter, 1.0f, quarter}, 1e-5f);
}

TEST(WindowTest, OutputDatatypeAndABadSize) {
    auto d = runOne(NodeSpec("HannWindow", {{"size", int64s({}, {2})}}, {DataType::Double}, 17,
                             [](NodeBuilder& n) { n.i("output_datatype", 11); }));
    ASSERT_TRUE(d) << d.status().message();
    EXPECT_EQ(d->dtype(), DataType::Double);
    EXPECT_EQ(valuesOf<double>(*d), (std::vector<double>{0.0, 1.0}));
    auto bad = runOne(NodeSpec("HannWindow", {{"size", int64s({}, {-1})}}, {DataType::Float}, 17));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.status().message().find("size must be one non-negative integer"), std::string::npos);
}

}  // namespace ql::test
