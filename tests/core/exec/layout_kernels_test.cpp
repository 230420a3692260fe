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
#include "core/exec/kernels/registry.h"
#include "core/exec/layout.h"
#include "core/exec/layout_concat.h"
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

// Concat of channels-last tensors along channels (a dense block's features, a fire module's branches) stays
// channels-last and copies every value: three inputs of odd widths, a batch of two.
TEST(LayoutKernelsTest, ConcatOfChannelsLastInputsEqualsThePlainConcat) {
    ModelBuilder b;
    const std::vector<int64_t> widths{5, 16, 7};
    const std::vector<std::string> names{"x0", "x1", "x2"};
    for (size_t i = 0; i < widths.size(); ++i) b.input(names[i], DataType::Float, {2, widths[i], 3, 4});
    b.node("Concat", names, {"y"}).i("axis", 1);
    b.output("y");
    auto model = b.load();
    const Graph& g = model->graph();
    std::vector<Tensor> plain, layouts;
    for (size_t i = 0; i < widths.size(); ++i) {
        const Shape shape{2, widths[i], 3, 4};
        plain.push_back(Tensor::fromVector<float>(DataType::Float, shape,
                                                  seededFloats(static_cast<size_t>(shapeElementCount(shape)), 20 + i)));
        layouts.push_back(onednn::convertTo(
            plain.back(),
            dnnl::memory::desc({2, widths[i], 3, 4}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::acdb)));
    }
    auto concat = [&](const std::vector<Tensor>& inputs) {
        auto plainKernel = findKernel("", "Concat", 13)->create();
        LayoutConcatKernel kernel(*plainKernel);
        EXPECT_TRUE(plainKernel->init(KernelInit{g.nodes()[0], g, 13}).isOk());
        EXPECT_TRUE(kernel.init(KernelInit{g.nodes()[0], g, 13}).isOk());
        kernel.setKeepLayout(true);
        std::vector<const Tensor*> pointers;
        for (const Tensor& t : inputs) pointers.push_back(&t);
        std::vector<Tensor> outputs(1);
        KernelContext ctx(g.nodes()[0], pointers, outputs, 2);
        const Status status = kernel.compute(ctx);
        EXPECT_TRUE(status.isOk()) << status.message();
        return outputs[0];
    };
    const Tensor expected = concat(plain), actual = concat(layouts);
    EXPECT_TRUE(expected.isPlain());
    EXPECT_FALSE(actual.isPlain()) << "left the channels-last layout";
    EXPECT_EQ(actual.shape(), (Shape{2, 28, 3, 4}));
    EXPECT_EQ(onednn::toPlain(actual).toFloats(), expected.toFloats());
}

}  // namespace
}  // namespace ql
