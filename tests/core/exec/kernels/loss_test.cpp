// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (loss_util.h) against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// Log-probabilities of 2 samples over 3 classes.
const Tensor kLogProb = floats({2, 3}, {-1.0f, -2.0f, -3.0f, -0.5f, -1.5f, -2.5f});

Result<Tensor> nll(const Tensor& x, const Tensor& target, const std::string& reduction,
                   std::optional<Tensor> weight = {}, std::optional<int64_t> ignore = {}) {
    NamedTensors in{{"x", x}, {"target", target}};
    if (weight) in.emplace_back("weight", *weight);
    return runOne(NodeSpec("NegativeLogLikelihoodLoss", in, {DataType::Float}, 13, [&](NodeBuilder& n) {
        n.s("reduction", reduction);
        if (ignore) n.i("ignore_index", *ignore);
    }));
}

}  // namespace

TEST(NegativeLogLikelihoodLossTest, ReductionsWithAndWithoutWeights) {
    const Tensor target = int64s({2}, {2, 0});
    auto none = nll(kLogProb, target, "none");
    ASSERT_TRUE(none) << none.status().message();
    expectNear(*none, {3.0f, 0.5f});
    auto sum = nll(kLogProb, target, "sum");
    ASSERT_TRUE(sum);
    expectNear(*sum, {3.5f});
    auto mean = nll(kLogProb, target, "mean");
    ASSERT_TRUE(mean);
    expectNear(*mean, {1.75f});
    // Weighted mean divides by the weights taken: (3 * 2 + 0.5 * 0.5) / (2 + 0.5).
    auto weighted = nll(kLogProb, target, "mean", floats({3}, {0.5f, 1.0f, 2.0f}));
    ASSERT_TRUE(weighted);
    expectNear(*weighted, {6.25f / 2.5f});
}

TEST(NegativeLogLikelihoodLossTest, IgnoreIndexDropsElementsFromTheLossAndTheMean) {
    // [N=1, C=2, d=3]; the middle position's target is the (negative) ignore_index.
    const Tensor x = floats({1, 2, 3}, {-1, -2, -3, -4, -5, -6});
    auto mean = nll(x, int64s({1, 3}, {0, -1, 1}), "mean", {}, -1);
    ASSERT_TRUE(mean) << mean.status().message();
    expectNear(*mean, {(1.0f + 6.0f) / 2.0f});
    auto none = nll(x, int64s({1, 3}, {0, -1, 1}), "none", {}, -1);
    ASSERT_TRUE(none);
    EXPECT_EQ(none->shape(), (Shape{1, 3}));
    expectNear(*none, {1, 0, 6});
}

TEST(NegativeLogLikelihoodLossTest, ATargetOutsideTheClassesIsAnError) {
    auto out = nll(kLogProb, int64s({2}, {3, 0}), "mean");
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("target 3 is not a class index in [0, 3)"), std::string::npos)
        << out.status().message();
}

TEST(SoftmaxCrossEntropyLossTest, LossAndLogProbOfTheSoftmax) {
    const Tensor scores = floats({2, 2}, {0.0f, 0.0f, 2.0f, 0.0f});
    auto out =
        runNode(NodeSpec("SoftmaxCrossEntropyLoss", {{"scores", scores}, {"labels", int64s({2}, {1, 0})}},
                         {DataType::Float, DataType::Float}, 13, [](NodeBuilder& n) { n.s("reduction", "none"); }));
    ASSERT_TRUE(out) << out.status().message();
    const float second = std::log1p(std::exp(-2.0f));  // -log softmax(2 | 2, 0)
    expectNear((*out)[0], {std::log(2.0f), second});
    expectNear((*out)[1], {-std::log(2.0f), -std::log(2.0f), -second, -2.0f - second});
}

TEST(SoftmaxCrossEntropyLossTest, DoubleScoresKeepTheirTypeAndTheMeanIsDefault) {
    const Tensor scores = Tensor::fromVector(DataType::Double, {1, 2}, std::vector<double>{1.0, 1.0});
    auto out = runOne(NodeSpec("SoftmaxCrossEntropyLoss", {{"scores", scores}, {"labels", int64s({1}, {0})}},
                               {DataType::Double}, 13));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(out->dtype(), DataType::Double);
    EXPECT_NEAR(out->data<double>()[0], std::log(2.0), 1e-12);
}

}  // namespace ql::test
