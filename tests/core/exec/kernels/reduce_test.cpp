#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runOne;
using test::valuesOf;

const Tensor kX = floats({2, 3}, {1, -2, 3, 4, 5, -6});

Result<Tensor> reduce(const std::string& op, const Tensor& x, std::vector<int64_t> axes, int64_t keepdims = 1,
                      int64_t opset = 13) {
    return runOne(NodeSpec{op, {{"x", x}}, {}, opset, [=](NodeBuilder& n) {
                               if (!axes.empty()) n.ints("axes", axes);
                               n.i("keepdims", keepdims);
                           }});
}

TEST(ReduceKernelTest, EveryOpOverTheLastAxis) {
    const std::vector<std::pair<std::string, std::vector<float>>> cases = {
        {"ReduceSum", {2, 3}},
        {"ReduceMean", {2 / 3.0f, 1}},
        {"ReduceMax", {3, 5}},
        {"ReduceMin", {-2, -6}},
        {"ReduceProd", {-6, -120}},
        {"ReduceL1", {6, 15}},
        {"ReduceL2", {std::sqrt(14.0f), std::sqrt(77.0f)}},
        {"ReduceSumSquare", {14, 77}},
        {"ReduceLogSumExp",
         {std::log(std::exp(1.0f) + std::exp(-2.0f) + std::exp(3.0f)),
          std::log(std::exp(4.0f) + std::exp(5.0f) + std::exp(-6.0f))}},
    };
    for (const auto& [op, expected] : cases) {
        SCOPED_TRACE(op);
        auto y = op == "ReduceSum" ? runOne(NodeSpec{op, {{"x", kX}, {"axes", test::int64s({1}, {-1})}}})
                                   : reduce(op, kX, {-1});
        ASSERT_TRUE(y.isOk()) << y.status().message();
        EXPECT_EQ(y.value().shape(), (Shape{2, 1}));
        expectNear(y.value(), expected);
    }
    auto logSum = reduce("ReduceLogSum", floats({2, 2}, {1, 2, 3, 4}), {0});
    ASSERT_TRUE(logSum.isOk());
    expectNear(logSum.value(), {std::log(4.0f), std::log(6.0f)});
}

TEST(ReduceKernelTest, KeepdimsZeroDropsTheAxes) {
    auto y = reduce("ReduceMax", kX, {0}, 0);
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(y.value().shape(), (Shape{3}));
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{4, 5, 3}));
}

TEST(ReduceKernelTest, NoAxesReducesEverything) {
    auto y = reduce("ReduceSum", kX, {}, 0, 11);
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(y.value().shape(), Shape{});
    EXPECT_EQ(valuesOf<float>(y.value()), (std::vector<float>{5}));
}

TEST(ReduceKernelTest, NoopWithEmptyAxesIsIdentity) {
    auto y = runOne(NodeSpec{"ReduceSum", {{"x", kX}}, {}, 13, [](NodeBuilder& n) { n.i("noop_with_empty_axes", 1); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(y.value().shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<float>(y.value()), valuesOf<float>(kX));
}

TEST(ReduceKernelTest, AxesAsInputFromOpset18) {
    auto y = runOne(NodeSpec{"ReduceMean", {{"x", kX}, {"axes", test::int64s({1}, {0})}}, {}, 18});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value(), {2.5f, 1.5f, -1.5f});
}

TEST(ReduceKernelTest, EmptyAxisGivesTheIdentity) {
    const Tensor empty(DataType::Float, {2, 0});
    auto sum = reduce("ReduceSum", empty, {1}, 1, 11);
    ASSERT_TRUE(sum.isOk()) << sum.status().message();
    EXPECT_EQ(valuesOf<float>(sum.value()), (std::vector<float>{0, 0}));
    auto prod = reduce("ReduceProd", empty, {1});
    EXPECT_EQ(valuesOf<float>(prod.value()), (std::vector<float>{1, 1}));
    auto max = reduce("ReduceMax", empty, {1});
    EXPECT_EQ(valuesOf<float>(max.value())[0], -std::numeric_limits<float>::infinity());
}

TEST(ReduceKernelTest, IntegerSumAndOutOfRangeAxis) {
    auto y = reduce("ReduceMax", test::int64s({2, 2}, {1, 9, -3, 4}), {1}, 0);
    ASSERT_TRUE(y.isOk());
    EXPECT_EQ(valuesOf<int64_t>(y.value()), (std::vector<int64_t>{9, 4}));
    EXPECT_FALSE(reduce("ReduceMax", kX, {2}).isOk());
}

// Reductions over non-adjacent axes of an odd 4-D shape against a naive loop.
TEST(ReduceKernelTest, RandomAxesMatchNaiveReference) {
    const Shape shape = {3, 5, 2, 7};
    Tensor x(DataType::Float, shape);
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(0.1f, 2.0f);
    for (float& v : x.span<float>()) v = dist(rng);
    for (const std::vector<int64_t>& axes : std::vector<std::vector<int64_t>>{{1, 3}, {0, 2}, {0, 1, 3}, {2}}) {
        for (const std::string op : {"ReduceSum", "ReduceMax", "ReduceL2", "ReduceLogSumExp", "ReduceMean"}) {
            SCOPED_TRACE(op);
            auto y = reduce(op, x, axes, 1, 13);
            if (op == "ReduceSum")
                y = runOne(NodeSpec{op, {{"x", x}, {"axes", test::int64s({static_cast<int64_t>(axes.size())}, axes)}}});
            ASSERT_TRUE(y.isOk()) << y.status().message();
            Shape outShape = shape;
            for (int64_t a : axes) outShape[static_cast<size_t>(a)] = 1;
            ASSERT_EQ(y.value().shape(), outShape);
            std::vector<double> acc(static_cast<size_t>(shapeElementCount(outShape)), op == "ReduceMax" ? -1e30 : 0.0);
            std::vector<double> count(acc.size(), 0);
            for (int64_t i = 0; i < x.elementCount(); ++i) {
                int64_t rest = i, out = 0, stride = 1;
                for (size_t d = shape.size(); d-- > 0;) {
                    const int64_t idx = rest % shape[d];
                    rest /= shape[d];
                    out += (outShape[d] == 1 ? 0 : idx) * stride;
                    stride *= outShape[d];
                }
                const double v = x.data<float>()[i];
                auto& a = acc[static_cast<size_t>(out)];
                a = op == "ReduceMax" ? std::max(a, v)
                                      : a + (op == "ReduceL2"          ? v * v
                                             : op == "ReduceLogSumExp" ? std::exp(v)
                                                                       : v);
                count[static_cast<size_t>(out)] += 1;
            }
            std::vector<float> expected;
            for (size_t k = 0; k < acc.size(); ++k) {
                const double a = acc[k];
                expected.push_back(static_cast<float>(op == "ReduceL2"          ? std::sqrt(a)
                                                      : op == "ReduceLogSumExp" ? std::log(a)
                                                      : op == "ReduceMean"      ? a / count[k]
                                                                                : a));
            }
            expectNear(y.value(), expected, 1e-5f);
        }
    }
}

// Large enough to split across threads; rows and columns against naive double sums.
TEST(ReduceKernelTest, ParallelRowAndColumnSums) {
    const int64_t rows = 300, cols = 1111;
    Tensor x(DataType::Float, {rows, cols});
    std::mt19937 rng(7767517);
    std::uniform_real_distribution<float> dist(-1, 1);
    for (float& v : x.span<float>()) v = dist(rng);
    for (int64_t axis : {0, 1}) {
        auto y = test::runNode(NodeSpec{"ReduceSum", {{"x", x}, {"axes", test::int64s({1}, {axis})}}}, 2);
        ASSERT_TRUE(y.isOk()) << y.status().message();
        std::vector<float> expected(static_cast<size_t>(axis == 0 ? cols : rows));
        std::vector<double> acc(expected.size(), 0.0);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c)
                acc[static_cast<size_t>(axis == 0 ? c : r)] += x.data<float>()[r * cols + c];
        for (size_t i = 0; i < acc.size(); ++i) expected[i] = static_cast<float>(acc[i]);
        expectNear(y.value()[0], expected, 1e-4f);
    }
}

}  // namespace
}  // namespace ql
