// Kernels that read and write tensors in oneDNN layouts in the executor's fused plan (BatchNormalization after
// a Concat, a Pad of zeros before AveragePool: DenseNet's blocks and transitions): their outputs must equal the
// plain, unfused run's, and they must really keep the layout (an observer that accepts layouts sees it).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "core/exec/layout.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

constexpr int64_t kC = 16;  // enough channels for oneDNN to choose a blocked / channels-last layout

void conv(ModelBuilder& b, const std::string& x, const std::string& y, int64_t inC, int64_t outC, uint32_t seed) {
    b.initializer(y + "_w", {outC, inC, 3, 3}, seededFloats(static_cast<size_t>(outC * inC * 9), seed));
    b.initializer(y + "_b", {outC}, seededFloats(static_cast<size_t>(outC), seed + 1));
    b.node("Conv", {x, y + "_w", y + "_b"}, {y}, y).ints("pads", {1, 1, 1, 1});
}

void batchNorm(ModelBuilder& b, const std::string& x, const std::string& y, int64_t channels, uint32_t seed) {
    const auto n = static_cast<size_t>(channels);
    b.initializer(y + "_scale", {channels}, seededFloats(n, seed, 0.5f, 1.5f));
    b.initializer(y + "_bias", {channels}, seededFloats(n, seed + 1));
    b.initializer(y + "_mean", {channels}, seededFloats(n, seed + 2));
    b.initializer(y + "_var", {channels}, seededFloats(n, seed + 3, 0.1f, 2.0f));
    b.node("BatchNormalization", {x, y + "_scale", y + "_bias", y + "_mean", y + "_var"}, {y}, y).f("epsilon", 1e-3f);
}

// A dense layer: Concat(x, Conv(x)) -> BatchNormalization -> Relu -> Conv, then a transition: Pad of zeros ->
// AveragePool -> Conv.
std::unique_ptr<Model> denseBlock() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 12, 12});
    conv(b, "x", "c1", kC, kC, 1);
    b.node("Relu", {"c1"}, {"r1"});
    conv(b, "r1", "c2", kC, kC, 3);
    b.node("Concat", {"r1", "c2"}, {"cat"}).i("axis", 1);
    batchNorm(b, "cat", "bn", 2 * kC, 5);
    b.node("Relu", {"bn"}, {"r2"});
    conv(b, "r2", "c3", 2 * kC, kC, 9);
    b.initializer("pads", DataType::Int64, {8}, {0, 0, 0, 0, 0, 0, 0, 0});
    b.node("Pad", {"c3", "pads"}, {"padded"}, "pad");
    b.node("AveragePool", {"padded"}, {"pooled"}).ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    conv(b, "pooled", "y", kC, kC, 11);
    b.output("y");
    return b.load();
}

Tensor input() {
    return Tensor::fromVector<float>(DataType::Float, {1, kC, 12, 12}, seededFloats(kC * 144, 11, -2.0f, 2.0f));
}

// Keeps every tensor it is shown, as given (layouts accepted), and their values in NCHW order.
class LayoutRecorder final : public TensorObserver {
public:
    bool wants(ValueId value) const override { return mWanted.count(value) > 0; }
    bool acceptsLayouts() const override { return true; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        plain[value] = tensor.isPlain();
        seen[value] = onednn::toPlain(tensor).toFloats();
    }
    void want(ValueId value) { mWanted[value] = true; }
    std::map<ValueId, bool> plain;
    std::map<ValueId, std::vector<float>> seen;

private:
    std::map<ValueId, bool> mWanted;
};

std::vector<float> run(const Graph& graph, bool fuse, TensorObserver* observer = nullptr) {
    RunOptions options;
    options.observer = observer;
    return test::runOnX(graph, input(), fuse, options);
}

TEST(LayoutKernelsTest, DenseBlockInLayoutsMatchesThePlainRun) {
    auto model = denseBlock();
    test::expectNearFloats(run(model->graph(), true), run(model->graph(), false));
}

TEST(LayoutKernelsTest, BatchNormalizationAndZeroPadKeepTheLayoutAndTheValues) {
    auto model = denseBlock();
    const Graph& g = model->graph();
    LayoutRecorder fused, plain;
    for (const char* name : {"cat", "bn", "padded"}) {
        fused.want(*g.findValue(name));
        plain.want(*g.findValue(name));
    }
    run(g, true, &fused);
    run(g, false, &plain);
    for (const char* name : {"cat", "bn", "padded"}) {
        SCOPED_TRACE(name);
        const ValueId v = *g.findValue(name);
        ASSERT_EQ(fused.seen.count(v), 1u);
        EXPECT_FALSE(fused.plain[v]) << "left the oneDNN layout";
        EXPECT_TRUE(plain.plain[v]);
        test::expectNearFloats(fused.seen[v], plain.seen[v]);
    }
}

}  // namespace
}  // namespace ql
