#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/exec/kernels/elementwise_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

Result<Tensor> unary(const std::string& op, const Tensor& x) {
    return runOne(NodeSpec{op, {{"x", x}}});
}

TEST(UnaryMathKernelTest, EveryFloatOpMatchesTheStandardLibrary) {
    const std::vector<float> in = {-0.9f, -0.3f, 0.0f, 0.2f, 0.7f};
    const std::vector<std::pair<std::string, double (*)(double)>> ops = {
        {"Exp", [](double v) { return std::exp(v); }},
        {"Sin", [](double v) { return std::sin(v); }},
        {"Cos", [](double v) { return std::cos(v); }},
        {"Tan", [](double v) { return std::tan(v); }},
        {"Asin", [](double v) { return std::asin(v); }},
        {"Acos", [](double v) { return std::acos(v); }},
        {"Atan", [](double v) { return std::atan(v); }},
        {"Sinh", [](double v) { return std::sinh(v); }},
        {"Cosh", [](double v) { return std::cosh(v); }},
        {"Asinh", [](double v) { return std::asinh(v); }},
        {"Atanh", [](double v) { return std::atanh(v); }},
        {"Tanh", [](double v) { return std::tanh(v); }},
        {"Erf", [](double v) { return std::erf(v); }},
        {"Abs", [](double v) { return std::fabs(v); }},
        {"Neg", [](double v) { return -v; }},
        {"Ceil", [](double v) { return std::ceil(v); }},
        {"Floor", [](double v) { return std::floor(v); }},
        {"Relu", [](double v) { return v > 0 ? v : 0.0; }},
        {"Sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }},
        {"Softplus", [](double v) { return std::log1p(std::exp(v)); }},
        {"Softsign", [](double v) { return v / (1 + std::fabs(v)); }},
        {"Sign", [](double v) { return double((v > 0) - (v < 0)); }},
    };
    for (const auto& [op, f] : ops) {
        auto y = unary(op, floats({5}, in));
        ASSERT_TRUE(y.isOk()) << op << ": " << y.status().message();
        std::vector<float> expected;
        for (float v : in) expected.push_back(static_cast<float>(f(v)));
        SCOPED_TRACE(op);
        expectNear(y.value(), expected, 1e-5f);
    }
}

TEST(UnaryMathKernelTest, LogSqrtReciprocalOnPositiveValues) {
    const Tensor x = floats({3}, {0.25f, 1.0f, 4.0f});
    expectNear(unary("Log", x).value(), {std::log(0.25f), 0.0f, std::log(4.0f)});
    expectNear(unary("Sqrt", x).value(), {0.5f, 1.0f, 2.0f});
    expectNear(unary("Reciprocal", x).value(), {4.0f, 1.0f, 0.25f});
    expectNear(unary("Acosh", floats({2}, {1.0f, 2.0f})).value(), {0.0f, std::acosh(2.0f)});
}

TEST(UnaryMathKernelTest, RoundIsHalfToEven) {
    auto y = unary("Round", floats({8}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f, -2.6f, 3.0f}));
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{0, 2, 2, -0, -2, 2, -3, 3}));
}

TEST(UnaryMathKernelTest, SoftplusDoesNotOverflowForLargeInputs) {
    expectNear(unary("Softplus", floats({2}, {100.0f, -100.0f})).value(), {100.0f, 0.0f});
}

TEST(UnaryMathKernelTest, IntegerAbsNegSignRelu) {
    const Tensor x = test::makeTensor<int32_t>(DataType::Int32, {4}, {-3, 0, 5, -1});
    EXPECT_EQ(valuesOf<int32_t>(unary("Abs", x).value()), (std::vector<int32_t>{3, 0, 5, 1}));
    EXPECT_EQ(valuesOf<int32_t>(unary("Neg", x).value()), (std::vector<int32_t>{3, 0, -5, 1}));
    EXPECT_EQ(valuesOf<int32_t>(unary("Sign", x).value()), (std::vector<int32_t>{-1, 0, 1, -1}));
    EXPECT_EQ(valuesOf<int32_t>(unary("Relu", x).value()), (std::vector<int32_t>{0, 0, 5, 0}));
    const Tensor u = test::makeTensor<uint8_t>(DataType::UInt8, {2}, {0, 7});
    EXPECT_EQ(valuesOf<uint8_t>(unary("Abs", u).value()), (std::vector<uint8_t>{0, 7}));
}

TEST(UnaryMathKernelTest, FloatOnlyOpOnIntegersFailsNamingTheType) {
    auto y = unary("Exp", test::makeTensor<int32_t>(DataType::Int32, {1}, {1}));
    ASSERT_FALSE(y.isOk());
    EXPECT_NE(y.status().message().find("INT32"), std::string::npos) << y.status().message();
}

TEST(UnaryMathKernelTest, DoubleAndFloat16AreSupported) {
    auto d = unary("Tanh", test::makeTensor<double>(DataType::Double, {2}, {0.5, -2.0}));
    ASSERT_TRUE(d.isOk());
    EXPECT_NEAR(valuesOf<double>(d.value())[1], std::tanh(-2.0), 1e-12);
    auto h = unary("Exp", fromFloatTensor(floats({2}, {0.0f, 1.0f}), DataType::Float16));
    ASSERT_TRUE(h.isOk());
    EXPECT_EQ(h.value().dtype(), DataType::Float16);
    expectNear(h.value(), {1.0f, 2.71875f}, 1e-3f);
}

TEST(UnaryMathKernelTest, ZeroSizeInput) {
    auto y = unary("Sigmoid", Tensor(DataType::Float, {2, 0}));
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(y.value().shape(), (Shape{2, 0}));
}

// The vectorized (Eigen) paths against scalar std:: functions on a large, odd-sized random tensor that spans
// several parallel chunks.
TEST(UnaryMathKernelTest, RandomLargeTensorMatchesScalarReference) {
    const int64_t n = 3 * kElementwiseGrain + 17;
    Tensor x(DataType::Float, {n});
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(-8, 8);
    for (float& v : x.span<float>()) v = dist(rng);
    for (const std::string op : {"Sigmoid", "Tanh", "Exp", "Erf"}) {
        auto y = test::runNode(NodeSpec{op, {{"x", x}}}, 2);
        ASSERT_TRUE(y.isOk());
        const float* p = y.value()[0].data<float>();
        for (int64_t i = 0; i < n; ++i) {
            const double v = x.data<float>()[i];
            const double ref = op == "Sigmoid" ? 1 / (1 + std::exp(-v))
                               : op == "Tanh"  ? std::tanh(v)
                               : op == "Exp"   ? std::exp(v)
                                               : std::erf(v);
            ASSERT_NEAR(p[i], ref, 2e-6 * (1 + std::fabs(ref))) << op << " at " << i << " x=" << v;
        }
    }
}

}  // namespace
}  // namespace ql
