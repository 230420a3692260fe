#include "core/exec/kernels/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// Output of two runs of one executor (a seeded node repeats itself; an unseeded one draws anew).
std::pair<std::vector<float>, std::vector<float>> twoRuns(const ModelBuilder& b, const NamedTensors& inputs) {
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    EXPECT_TRUE(exec) << exec.status().message();
    auto first = (*exec)->run(inputs);
    auto second = (*exec)->run(inputs);
    EXPECT_TRUE(first && second);
    return {(*first)[0].second.toFloats(), (*second)[0].second.toFloats()};
}

}  // namespace

TEST(RandomTest, UniformValuesStayInRangeAndASeedRepeatsThem) {
    ModelBuilder b(13);
    b.node("RandomUniform", {}, {"y"}).ints("shape", {4, 250}).f("low", 2.0f).f("high", 3.0f).f("seed", 5.0f);
    b.output("y", DataType::Float, {4, 250}, true);
    const auto [first, second] = twoRuns(b, {});
    ASSERT_EQ(first.size(), 1000u);
    EXPECT_EQ(first, second);
    EXPECT_TRUE(std::all_of(first.begin(), first.end(), [](float v) { return v >= 2.0f && v < 3.0f; }));
    EXPECT_NEAR(std::accumulate(first.begin(), first.end(), 0.0) / 1000.0, 2.5, 0.05);
}

TEST(RandomTest, NormalLikeTakesTheInputsShapeAndTypeAndDrawsAnewWithoutASeed) {
    ModelBuilder b(13);
    b.input("x", DataType::Double, {2000});
    b.node("RandomNormalLike", {"x"}, {"y"}).f("mean", 10.0f).f("scale", 2.0f);
    b.output("y", DataType::Double, {2000}, true);
    const auto [first, second] = twoRuns(b, {{"x", Tensor::zeros(DataType::Double, {2000})}});
    EXPECT_NE(first, second);
    const double mean = std::accumulate(first.begin(), first.end(), 0.0) / 2000.0;
    double variance = 0;
    for (float v : first) variance += (v - mean) * (v - mean) / 2000.0;
    EXPECT_NEAR(mean, 10.0, 0.2);
    EXPECT_NEAR(std::sqrt(variance), 2.0, 0.2);
}

TEST(RandomTest, AnIntegerDtypeIsRefused) {
    auto out = runOne(NodeSpec("RandomUniform", {}, {DataType::Int32}, 13,
                               [](NodeBuilder& n) { n.ints("shape", {2}).i("dtype", 6); }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("dtype must be a floating-point type"), std::string::npos);
}

}  // namespace ql::test
