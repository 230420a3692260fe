// Binary ops on tensors in oneDNN layouts (core/exec/layout_ops.h): a per-channel operand ([1, C, 1, 1], a
// squeeze-excite gate or a per-channel shift) is applied by the executor's own pass in every layout a
// convolution leaves its output in. The values must be a's (op) the channel's, the output must keep a's layout,
// and a channel-blocked layout's padding channels must stay zero (oneDNN reads them).
#include "core/exec/layout_ops.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/exec/layout.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using tag = dnnl::memory::format_tag;

struct LayoutCase {
    tag layout;
    int64_t channels;
};

class ChannelBinaryTest : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(ChannelBinaryTest, AppliesEachChannelsValueAndKeepsTheLayout) {
    const auto [layout, c] = GetParam();
    const Shape shape{2, c, 5, 3};
    const auto values = test::seededFloats(static_cast<size_t>(shapeElementCount(shape)), 3);
    const auto gates = test::seededFloats(static_cast<size_t>(c), 4);
    const Tensor plainA = Tensor::fromVector<float>(DataType::Float, shape, values);
    const Tensor gate = Tensor::fromVector<float>(DataType::Float, {1, c, 1, 1}, gates);
    const dnnl::memory::desc desc({2, c, 5, 3}, dnnl::memory::data_type::f32, layout);
    const Tensor a = onednn::convertTo(plainA, desc);
    for (auto op : {dnnl::algorithm::binary_mul, dnnl::algorithm::binary_add}) {
        const bool add = op == dnnl::algorithm::binary_add;
        SCOPED_TRACE(add ? "add" : "mul");
        onednn::BinaryCache cache;
        auto y = onednn::binaryInLayout(op, a, gate, true, cache);
        ASSERT_TRUE(y);
        EXPECT_TRUE(onednn::descOf(*y) == desc) << "left a's layout";
        const auto out = onednn::toPlain(*y).toFloats();
        for (size_t i = 0; i < out.size(); ++i) {
            const float g = gates[i / 15 % static_cast<size_t>(c)];
            ASSERT_EQ(out[i], add ? values[i] + g : values[i] * g) << "element " << i;
        }
        // Every stored float beyond the logical ones is padding: zero in a, so zero in y.
        const auto* stored = static_cast<const float*>(y->rawData());
        double storedSum = 0, logicalSum = 0;
        for (size_t i = 0; i < y->byteSize() / sizeof(float); ++i) storedSum += std::abs(stored[i]);
        for (float v : out) logicalSum += std::abs(v);
        EXPECT_NEAR(storedSum, logicalSum, 1e-3 * logicalSum) << "padding channels are not zero";
    }
}

INSTANTIATE_TEST_SUITE_P(Layouts, ChannelBinaryTest,
                         ::testing::Values(LayoutCase{tag::abcd, 20}, LayoutCase{tag::acdb, 20},
                                           LayoutCase{tag::aBcd16b, 20}, LayoutCase{tag::aBcd8b, 20},
                                           LayoutCase{tag::aBcd16b, 32}));

// The gate in a layout of its own (a 1x1 map from a convolution kept in the executor's layouts).
TEST(ChannelBinaryTest, TakesAGateInAChannelBlockedLayout) {
    const Shape shape{1, 20, 4, 4};
    const auto values = test::seededFloats(320, 5);
    const auto gates = test::seededFloats(20, 6);
    const auto blocked = [](const Shape& s) {
        return dnnl::memory::desc({s[0], s[1], s[2], s[3]}, dnnl::memory::data_type::f32, tag::aBcd16b);
    };
    const Tensor a = onednn::convertTo(Tensor::fromVector<float>(DataType::Float, shape, values), blocked(shape));
    const Tensor gate =
        onednn::convertTo(Tensor::fromVector<float>(DataType::Float, {1, 20, 1, 1}, gates), blocked({1, 20, 1, 1}));
    onednn::BinaryCache cache;
    auto y = onednn::binaryInLayout(dnnl::algorithm::binary_mul, a, gate, true, cache);
    ASSERT_TRUE(y);
    const auto out = onednn::toPlain(*y).toFloats();
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], values[i] * gates[i / 16]) << "element " << i;
}

}  // namespace
}  // namespace ql
