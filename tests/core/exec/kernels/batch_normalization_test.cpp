#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::expectNear;
using test::floats;
using test::NodeBuilder;
using test::NodeSpec;
using test::runNode;

const Tensor kX = floats({1, 2, 2}, {1, 3, -2, 2});

NamedTensors bnInputs() {
    return {{"x", kX},
            {"scale", floats({2}, {2, 1})},
            {"b", floats({2}, {0.5f, 0})},
            {"mean", floats({2}, {2, 0})},
            {"var", floats({2}, {4, 1})}};
}

TEST(BatchNormalizationKernelTest, InferenceUsesTheGivenStatistics) {
    auto y = runNode(NodeSpec{"BatchNormalization", bnInputs(), {}, 15, [](NodeBuilder& n) { n.f("epsilon", 0.0f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value()[0], {2 * (1 - 2) / 2.0f + 0.5f, 2 * (3 - 2) / 2.0f + 0.5f, -2, 2});
}

TEST(BatchNormalizationKernelTest, EpsilonIsAddedToTheVariance) {
    auto y = runNode(NodeSpec{"BatchNormalization", bnInputs(), {}, 9, [](NodeBuilder& n) { n.f("epsilon", 0.5f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    expectNear(y.value()[0],
               {-2 / std::sqrt(4.5f) + 0.5f, 2 / std::sqrt(4.5f) + 0.5f, -2 / std::sqrt(1.5f), 2 / std::sqrt(1.5f)});
}

TEST(BatchNormalizationKernelTest, TrainingModeUsesBatchStatisticsAndUpdatesRunningOnes) {
    auto y = runNode(NodeSpec{
        "BatchNormalization", bnInputs(), {DataType::Float, DataType::Float, DataType::Float}, 15, [](NodeBuilder& n) {
            n.i("training_mode", 1).f("epsilon", 0.0f).f("momentum", 0.5f);
        }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    // Channel 0: values {1, 3}, mean 2, var 1. Channel 1: {-2, 2}, mean 0, var 4.
    expectNear(y.value()[0], {-2 + 0.5f, 2 + 0.5f, -1, 1});
    expectNear(y.value()[1], {2, 0});
    expectNear(y.value()[2], {2.5f, 2.5f});
}

TEST(BatchNormalizationKernelTest, WrongParameterSizeFails) {
    NamedTensors in = bnInputs();
    in[1].second = floats({3}, {1, 1, 1});
    auto y = runNode(NodeSpec{"BatchNormalization", in, {}, 15});
    EXPECT_FALSE(y.isOk());
}

}  // namespace
}  // namespace ql
