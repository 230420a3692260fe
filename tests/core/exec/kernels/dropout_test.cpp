#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::NodeBuilder;
using test::NodeSpec;
using test::runNode;
using test::valuesOf;

const Tensor kX = test::floats({2, 2}, {1, -2, 3, 4});

TEST(DropoutKernelTest, InferenceIsIdentityWithAllTrueMask) {
    auto y = runNode(
        NodeSpec{"Dropout", {{"x", kX}, {"ratio", test::floats({}, {0.7f})}}, {DataType::Float, DataType::Bool}, 13});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()[0]), valuesOf<float>(kX));
    EXPECT_EQ(valuesOf<uint8_t>(y.value()[1]), (std::vector<uint8_t>{1, 1, 1, 1}));
}

TEST(DropoutKernelTest, OldOpsetRatioAttributeIsIgnoredInInference) {
    auto y = runNode(NodeSpec{"Dropout", {{"x", kX}}, {}, 10, [](NodeBuilder& n) { n.f("ratio", 0.5f); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    EXPECT_EQ(valuesOf<float>(y.value()[0]), valuesOf<float>(kX));
}

TEST(DropoutKernelTest, TrainingModeKeepsAndScalesAccordingToTheMask) {
    auto y = runNode(NodeSpec{"Dropout",
                              {{"x", kX}, {"ratio", test::floats({}, {0.5f})}, {"t", test::bools({}, {1})}},
                              {DataType::Float, DataType::Bool},
                              13,
                              [](NodeBuilder& n) { n.i("seed", 3); }});
    ASSERT_TRUE(y.isOk()) << y.status().message();
    const auto out = valuesOf<float>(y.value()[0]);
    const auto mask = valuesOf<uint8_t>(y.value()[1]);
    const auto in = valuesOf<float>(kX);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], mask[i] ? in[i] * 2 : 0.0f) << i;
}

}  // namespace
}  // namespace ql
