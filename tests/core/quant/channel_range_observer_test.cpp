#include "core/quant/channel_range_observer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/exec/layout.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// max |x| per channel on `axis` of a plain float tensor, the slow obvious way.
std::vector<float> reference(const std::vector<float>& values, const Shape& shape, size_t axis) {
    int64_t inner = 1;
    for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
    std::vector<float> amax(static_cast<size_t>(shape[axis]), 0.0f);
    for (size_t i = 0; i < values.size(); ++i) {
        const auto c = static_cast<size_t>((static_cast<int64_t>(i) / inner) % shape[axis]);
        if (std::isfinite(values[i])) amax[c] = std::max(amax[c], std::fabs(values[i]));
    }
    return amax;
}

TEST(ChannelRangeObserver, PlainTensorsOnEveryAxisOverSeveralBatches) {
    const Shape shape = {2, 5, 3, 7};  // odd sizes: runs shorter and longer than the vector lanes
    for (int64_t axis : {0, 1, 2, 3}) {
        ChannelRangeObserver observer(axis == 3 ? -1 : axis);
        std::vector<float> expected;
        for (uint32_t seed : {1u, 2u}) {
            const std::vector<float> v = test::seededFloats(210, seed, -3.0f, 2.0f);
            observer.observe(Tensor::fromVector(DataType::Float, shape, v));
            const std::vector<float> batch = reference(v, shape, static_cast<size_t>(axis));
            if (expected.empty()) expected.assign(batch.size(), 0.0f);
            for (size_t c = 0; c < batch.size(); ++c) expected[c] = std::max(expected[c], batch[c]);
        }
        EXPECT_EQ(observer.axis(), axis);
        EXPECT_EQ(observer.amax(), expected) << "axis " << axis;
    }
}

TEST(ChannelRangeObserver, NonFiniteValuesAreSkipped) {
    ChannelRangeObserver observer(1);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    observer.observe(Tensor::fromVector(DataType::Float, {1, 2, 2}, std::vector<float>{nan, -3.0f, inf, 0.5f}));
    EXPECT_EQ(observer.amax(), (std::vector<float>{3.0f, 0.5f}));
}

TEST(ChannelRangeObserver, HalfTensorsAreRead) {
    ChannelRangeObserver observer(-1);
    observer.observe(Tensor::fromVector(DataType::Float16, {1, 2}, std::vector<uint16_t>{0x3c00, 0xc000}));  // 1, -2
    EXPECT_EQ(observer.amax(), (std::vector<float>{1.0f, 2.0f}));
}

// Channels-last and 8/16-channel blocks (20 channels: the last block padded) are read where they lie.
TEST(ChannelRangeObserver, OneDnnLayoutsGiveThePlainResult) {
    using tag = dnnl::memory::format_tag;
    const Shape shape = {2, 20, 3, 5};
    const std::vector<float> v = test::seededFloats(600, 5, -4.0f, 4.0f);
    const Tensor plain = Tensor::fromVector(DataType::Float, shape, v);
    const std::vector<float> expected = reference(v, shape, 1);
    for (tag layout : {tag::acdb, tag::aBcd8b, tag::aBcd16b}) {
        const Tensor stored =
            onednn::convertTo(plain, dnnl::memory::desc({2, 20, 3, 5}, dnnl::memory::data_type::f32, layout));
        ASSERT_FALSE(stored.isPlain());
        ChannelRangeObserver observer(1);
        observer.observe(stored);
        EXPECT_EQ(observer.amax(), expected) << static_cast<int>(layout);
    }
}

TEST(ChannelRangeObserver, TooManyChannelsOrAChangingCountStopsTheMeasurement) {
    ChannelRangeObserver wide(1);
    wide.observe(Tensor(DataType::Float, {1, ChannelRangeObserver::kMaxChannels + 1}));
    EXPECT_TRUE(wide.amax().empty());
    ChannelRangeObserver changing(-1);
    changing.observe(Tensor::fromVector(DataType::Float, {1, 2}, std::vector<float>{1, 2}));
    EXPECT_EQ(changing.amax().size(), 2u);
    changing.observe(Tensor::fromVector(DataType::Float, {1, 3}, std::vector<float>{1, 2, 3}));
    EXPECT_TRUE(changing.amax().empty());
    ChannelRangeObserver scalar(1);
    scalar.observe(Tensor::fromVector(DataType::Float, {3}, std::vector<float>{1, 2, 3}));
    EXPECT_TRUE(scalar.amax().empty());
}

TEST(ChannelRangeObserver, TheAxisIsTheOneTheConsumerReducesOver) {
    ModelBuilder b;
    b.input("image", DataType::Float, {1, 3, 4, 4});
    b.input("tokens", DataType::Float, {1, 5, 8});
    b.input("keys", DataType::Float, {1, 8, 5});
    b.input("rows", DataType::Float, {6, 2});
    b.input("bias", DataType::Float, {4});
    b.initializer("w", {2, 3, 1, 1}, std::vector<float>(6, 1.0f));
    b.initializer("g", {6, 3}, std::vector<float>(18, 1.0f));
    b.node("Conv", {"image", "w"}, {"feat"}, "conv");
    b.node("MatMul", {"tokens", "keys"}, {"scores"}, "matmul");
    b.node("Gemm", {"rows", "g"}, {"gemm_out"}, "gemm").i("transA", 1);
    b.node("Relu", {"bias"}, {"bias_out"}, "relu");
    for (const char* out : {"feat", "scores", "gemm_out", "bias_out"}) b.output(out);
    auto model = b.load();
    const Graph& g = model->graph();
    const auto axis = [&](const char* name) { return activationChannelAxis(g, *g.findValue(name)); };
    EXPECT_EQ(axis("image"), 1);    // Conv input channels
    EXPECT_EQ(axis("tokens"), -1);  // MatMul A: K, the last axis
    EXPECT_EQ(axis("keys"), -2);    // MatMul B: K
    EXPECT_EQ(axis("rows"), 0);     // Gemm A with transA: [K, M]
    EXPECT_EQ(axis("scores"), -1);  // no consumer: a MatMul's output channels are its last axis
    EXPECT_EQ(axis("feat"), 1);
    EXPECT_EQ(axis("bias"), std::nullopt);  // rank 1
}

}  // namespace
}  // namespace ql
