#include "core/exec/fusion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/exec/executor.h"
#include "core/exec/kernels/fast_swish.h"
#include "core/exec/layout.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

constexpr int64_t kC = 16;  // channels: enough for oneDNN to choose a blocked / channels-last layout

void conv(ModelBuilder& b, const std::string& x, const std::string& y, int64_t inC, int64_t outC, int64_t group,
          uint32_t seed) {
    const std::string w = y + "_w", bias = y + "_b";
    b.initializer(w, {outC, inC / group, 3, 3}, seededFloats(static_cast<size_t>(outC * inC / group * 9), seed));
    b.initializer(bias, {outC}, seededFloats(static_cast<size_t>(outC), seed + 1));
    b.node("Conv", {x, w, bias}, {y}, y).ints("pads", {1, 1, 1, 1}).i("group", group);
}

// Conv -> Relu
std::unique_ptr<Model> convRelu() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 10, 10});
    conv(b, "x", "c1", kC, kC, 1, 1);
    b.node("Relu", {"c1"}, {"y"});
    b.output("y");
    return b.load();
}

// Conv -> Sigmoid -> Mul (SiLU, EfficientNet's activation), or Conv -> Sigmoid (a squeeze-excite gate).
std::unique_ptr<Model> convSigmoid(bool silu) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 10, 10});
    conv(b, "x", "c1", kC, kC, 1, 1);
    b.node("Sigmoid", {"c1"}, {silu ? "s1" : "y"});
    if (silu) b.node("Mul", {"c1", "s1"}, {"y"});
    b.output("y");
    return b.load();
}

// Conv -> Relu -> Conv -> Add(Relu output) -> Relu: the ResNet block.
std::unique_ptr<Model> convAddRelu() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 10, 10});
    conv(b, "x", "c1", kC, kC, 1, 1);
    b.node("Relu", {"c1"}, {"r1"});
    conv(b, "r1", "c2", kC, kC, 1, 3);
    b.node("Add", {"c2", "r1"}, {"sum"});
    b.node("Relu", {"sum"}, {"y"});
    b.output("y");
    return b.load();
}

// Every fusion pattern and layout-aware op in one network: Clip, SiLU, squeeze-excite with HardSigmoid and a
// broadcast Mul, HardSwish as x * HardSigmoid(x), a residual Add, MaxPool and GlobalAveragePool.
std::unique_ptr<Model> mobileBlock() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 12, 12});
    b.initializer("lo", {}, {0.0f});
    b.initializer("hi", {}, {6.0f});
    conv(b, "x", "c1", kC, kC, 1, 1);
    b.node("Clip", {"c1", "lo", "hi"}, {"r1"});
    conv(b, "r1", "c2", kC, kC, kC, 3);  // depthwise
    b.node("Sigmoid", {"c2"}, {"s2"});
    b.node("Mul", {"c2", "s2"}, {"silu"});
    b.node("GlobalAveragePool", {"silu"}, {"pooled"});
    conv(b, "pooled", "c3", kC, kC, 1, 5);
    b.node("HardSigmoid", {"c3"}, {"gate"}).f("alpha", 0.2f).f("beta", 0.5f);
    b.node("Mul", {"silu", "gate"}, {"excited"});
    conv(b, "excited", "c4", kC, kC, 1, 7);
    b.node("Add", {"r1", "c4"}, {"res"});
    conv(b, "res", "c5", kC, kC, 1, 9);
    b.node("HardSigmoid", {"c5"}, {"hs"}).f("alpha", 1.0f / 6.0f).f("beta", 0.5f);
    b.node("Mul", {"hs", "c5"}, {"hswish"});
    b.node("MaxPool", {"hswish"}, {"y"}).ints("kernel_shape", {3, 3}).ints("strides", {2, 2}).i("ceil_mode", 1);
    b.output("y");
    return b.load();
}

// Two Conv+Relu branches joined by Concat along channels, then a Conv: SqueezeNet's fire module.
std::unique_ptr<Model> fireModule() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 10, 10});
    conv(b, "x", "a", kC, kC, 1, 1);
    b.node("Relu", {"a"}, {"ra"});
    conv(b, "x", "b", kC, kC, 1, 3);
    b.node("Relu", {"b"}, {"rb"});
    b.node("Concat", {"ra", "rb"}, {"cat"}).i("axis", 1);
    conv(b, "cat", "y", 2 * kC, kC, 1, 5);
    b.output("y");
    return b.load();
}

Tensor input(const Shape& shape) {
    return Tensor::fromVector<float>(DataType::Float, shape,
                                     seededFloats(static_cast<size_t>(shapeElementCount(shape)), 11, -2.0f, 2.0f));
}

std::vector<float> runOnce(const Graph& graph, bool fuse, const Shape& shape, const RunOptions& options = {}) {
    return test::runOnX(graph, input(shape), fuse, options);
}

void expectSameOutputs(const Graph& graph, const Shape& shape) {
    test::expectNearFloats(runOnce(graph, true, shape), runOnce(graph, false, shape));
}

ValueId valueNamed(const Graph& graph, const std::string& name) {
    return *graph.findValue(name);
}

TEST(FusionTest, ConvReluBecomesOneGroupHidingTheConvOutput) {
    auto model = convRelu();
    const Graph& g = model->graph();
    const auto groups = findConvFusions(g);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(g.node(groups[0].anchor).opType, "Conv");
    EXPECT_EQ(groups[0].hidden, std::vector<ValueId>{valueNamed(g, "c1")});
    EXPECT_EQ(groups[0].output, valueNamed(g, "y"));
    ASSERT_EQ(groups[0].postOps.size(), 1u);
    EXPECT_EQ(groups[0].postOps[0].algorithm, dnnl::algorithm::eltwise_relu);
}

TEST(FusionTest, AddTakesTheOtherOperandAsASumPostOp) {
    auto model = convAddRelu();
    const Graph& g = model->graph();
    const auto groups = findConvFusions(g);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].output, valueNamed(g, "r1"));  // c1 + Relu; r1 feeds two nodes, so it ends there
    EXPECT_EQ(groups[1].anchor, *g.findNode("c2"));
    EXPECT_EQ(groups[1].sumOperand, valueNamed(g, "r1"));
    ASSERT_EQ(groups[1].postOps.size(), 2u);
    EXPECT_TRUE(groups[1].postOps[0].sum);
    EXPECT_EQ(groups[1].postOps[1].algorithm, dnnl::algorithm::eltwise_relu);
    EXPECT_EQ(groups[1].hidden, (std::vector<ValueId>{valueNamed(g, "c2"), valueNamed(g, "sum")}));
    EXPECT_EQ(groups[1].output, valueNamed(g, "y"));
}

TEST(FusionTest, GatedActivationsBecomeSwishAndHardSwish) {
    auto model = mobileBlock();
    const Graph& g = model->graph();
    std::map<std::string, std::vector<PostOp>> byAnchor;
    for (const FusionGroup& group : findConvFusions(g)) byAnchor[g.node(group.anchor).name] = group.postOps;
    ASSERT_EQ(byAnchor.size(), 5u);
    ASSERT_EQ(byAnchor["c1"].size(), 1u);
    EXPECT_EQ(byAnchor["c1"][0].algorithm, dnnl::algorithm::eltwise_clip);
    EXPECT_EQ(byAnchor["c1"][0].beta, 6.0f);
    ASSERT_EQ(byAnchor["c2"].size(), 1u);
    EXPECT_EQ(byAnchor["c2"][0].algorithm, dnnl::algorithm::eltwise_swish);
    ASSERT_EQ(byAnchor["c3"].size(), 2u);  // HardSigmoid(0.2, 0.5) = clip(0.2 x + 0.5, 0, 1)
    EXPECT_EQ(byAnchor["c3"][0].algorithm, dnnl::algorithm::eltwise_linear);
    ASSERT_EQ(byAnchor["c4"].size(), 1u);
    EXPECT_TRUE(byAnchor["c4"][0].sum);
    ASSERT_EQ(byAnchor["c5"].size(), 1u);
    EXPECT_EQ(byAnchor["c5"][0].algorithm, dnnl::algorithm::eltwise_hardswish);
}

TEST(FusionTest, FusedAndUnfusedRunsAgree) {
    expectSameOutputs(convRelu()->graph(), {1, kC, 10, 10});
    expectSameOutputs(convAddRelu()->graph(), {1, kC, 10, 10});
    expectSameOutputs(mobileBlock()->graph(), {1, kC, 12, 12});
    expectSameOutputs(fireModule()->graph(), {1, kC, 10, 10});
}

// The INT8 simulation runs node by node and the exported Q/DQ model fused; the export check holds them equal to
// the bit, so a fused Sigmoid or Swish must round as the Sigmoid (then Mul) kernels do.
TEST(FusionTest, FusedSigmoidAndSiluEqualTheirNodesToTheBit) {
    if (!fastSwishAvailable()) GTEST_SKIP() << "without AVX-512 they are oneDNN's post-ops";
    for (bool silu : {false, true}) {
        const auto model = convSigmoid(silu);
        EXPECT_EQ(runOnce(model->graph(), true, {1, kC, 10, 10}), runOnce(model->graph(), false, {1, kC, 10, 10}))
            << (silu ? "SiLU" : "Sigmoid");
    }
}

// Conv -> c1; GlobalAveragePool -> Conv -> Sigmoid -> gate; Mul(c1, gate) -> m -> Conv (k x k) -> y: a
// squeeze-excite block, with the gate computed (one per image) or a constant [1, C, 1, 1].
std::unique_ptr<Model> squeezeExcite(int64_t kernel, bool constantGate) {
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, kC, -1, -1});
    conv(b, "x", "c1", kC, kC, 1, 1);
    if (constantGate) {
        b.initializer("gate", {1, kC, 1, 1}, seededFloats(kC, 5, 0.0f, 1.0f));
    } else {
        b.node("GlobalAveragePool", {"c1"}, {"pooled"});
        b.initializer("s_w", {kC, kC, 1, 1}, seededFloats(kC * kC, 3));
        b.node("Conv", {"pooled", "s_w"}, {"s"});
        b.node("Sigmoid", {"s"}, {"gate"});
    }
    b.node("Mul", {"c1", "gate"}, {"m"});
    b.initializer("y_w", {kC, kC, kernel, kernel}, seededFloats(static_cast<size_t>(kC * kC * kernel * kernel), 7));
    b.node("Conv", {"m", "y_w"}, {"y"}, "project").ints("pads", std::vector<int64_t>(4, kernel / 2));
    b.output("y");
    return b.load();
}

TEST(FusionTest, ASqueezeExciteMulJoinsTheConvolutionItFeeds) {
    auto model = squeezeExcite(1, false);
    const Graph& g = model->graph();
    const auto groups = findConvFusions(g);
    const auto project = std::find_if(groups.begin(), groups.end(),
                                      [&](const FusionGroup& group) { return group.anchor == *g.findNode("project"); });
    ASSERT_NE(project, groups.end());
    EXPECT_EQ(project->gatedInput, valueNamed(g, "c1"));
    EXPECT_EQ(project->inputGate, valueNamed(g, "gate"));
    EXPECT_EQ(project->gatedProduct, valueNamed(g, "m"));
    EXPECT_EQ(project->hidden, std::vector<ValueId>{valueNamed(g, "m")});
    ASSERT_EQ(project->fused.size(), 1u);
    EXPECT_EQ(g.node(project->fused[0]).opType, "Mul");
}

// Every way the gated convolution runs gives the Mul-then-Conv result: the gate folded into 1x1 and 3x3 weights
// (batch 1, or one constant gate for a batch of 2), and X multiplied first where the weights outweigh X (2x2)
// or each image has its own gate (batch 2).
TEST(FusionTest, AGatedConvolutionEqualsTheMulThenTheConvolution) {
    for (const int64_t kernel : {int64_t{1}, int64_t{3}})
        for (const bool constantGate : {false, true})
            for (const Shape& shape : {Shape{1, kC, 12, 12}, Shape{1, kC, 2, 2}, Shape{2, kC, 12, 12}}) {
                SCOPED_TRACE(std::to_string(kernel) + "x" + std::to_string(kernel) + (constantGate ? " constant" : "") +
                             " gate, input " + shapeString(shape));
                expectSameOutputs(squeezeExcite(kernel, constantGate)->graph(), shape);
            }
}

// A Mul whose output is read elsewhere too, or a grouped convolution, keeps the Mul on its own.
TEST(FusionTest, AGateIsNotFoldedIntoGroupedConvolutionsOrSharedProducts) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 8, 8});
    b.initializer("gate", {1, kC, 1, 1}, seededFloats(kC, 5, 0.0f, 1.0f));
    b.node("Mul", {"x", "gate"}, {"m1"});
    conv(b, "m1", "depthwise", kC, kC, kC, 3);
    b.node("Mul", {"depthwise", "gate"}, {"m2"});
    conv(b, "m2", "y", kC, kC, 1, 5);
    b.output("y");
    b.output("m2");
    auto model = b.load();
    for (const FusionGroup& group : findConvFusions(model->graph())) EXPECT_EQ(group.inputGate, kNoId);
}

// Concat -> BatchNormalization -> Relu -> Conv (DenseNet), and a BN whose output is also a graph output.
std::unique_ptr<Model> normRelu() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, kC, 10, 10});
    conv(b, "x", "c1", kC, kC, 1, 1);
    b.node("Concat", {"x", "c1"}, {"cat"}).i("axis", 1);
    for (const char* p : {"scale", "bias", "mean", "var"})
        b.initializer(std::string("bn_") + p, {2 * kC}, seededFloats(2 * kC, 7, p[0] == 'v' ? 0.5f : -1.0f, 1.5f));
    b.node("BatchNormalization", {"cat", "bn_scale", "bn_bias", "bn_mean", "bn_var"}, {"bn"}, "bn");
    b.node("Relu", {"bn"}, {"r"});
    conv(b, "r", "c2", 2 * kC, kC, 1, 3);
    b.node("BatchNormalization", {"c2", "c1_b", "c1_b", "c1_b", "bn_var_small"}, {"bn2"}, "bn2");
    b.initializer("bn_var_small", {kC}, seededFloats(kC, 9, 0.5f, 1.5f));
    b.node("Relu", {"bn2"}, {"y"});
    b.output("y");
    b.output("bn2");
    return b.load();
}

TEST(FusionTest, BatchNormalizationAndItsOnlyReluBecomeOneStep) {
    auto model = normRelu();
    const Graph& g = model->graph();
    const auto conv = findConvFusions(g);
    const auto groups = findNormReluFusions(g, conv);
    ASSERT_EQ(groups.size(), 1u);  // not bn2: its output is a graph output
    EXPECT_EQ(g.node(groups[0].anchor).name, "bn");
    EXPECT_EQ(groups[0].hidden, std::vector<ValueId>{valueNamed(g, "bn")});
    EXPECT_EQ(groups[0].output, valueNamed(g, "r"));
    expectSameOutputs(g, {1, kC, 10, 10});
}

// Keeps the stored floats of the one tensor it wants, in whatever layout it comes (wanting a group's hidden
// tensor would split the group).
class StorageRecorder final : public TensorObserver {
public:
    explicit StorageRecorder(ValueId wanted) : mWanted(wanted) {}
    bool wants(ValueId value) const override { return value == mWanted; }
    bool acceptsLayouts() const override { return true; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        const auto* data = static_cast<const float*>(tensor.rawData());
        stored[value].assign(data, data + tensor.byteSize() / sizeof(float));
        logical[value] = onednn::toPlain(tensor).toFloats();
    }
    std::map<ValueId, std::vector<float>> stored, logical;

private:
    ValueId mWanted;
};

// A Sigmoid fused after a convolution whose output is channel-blocked with padding (20 channels in nChw16c,
// after a Winograd layer): sigmoid(0) = 0.5 must not land in the padding, which oneDNN expects to be zero.
TEST(FusionTest, AFusedSigmoidLeavesNoValueInALayoutsPadding) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 16, 16});
    conv(b, "x", "c1", 64, 64, 1, 1);
    b.initializer("c2_w", {20, 64, 1, 1}, seededFloats(20 * 64, 3));
    b.node("Conv", {"c1", "c2_w"}, {"c2"}, "c2");
    b.node("Sigmoid", {"c2"}, {"s"});
    b.initializer("c3_w", {16, 20, 1, 1}, seededFloats(16 * 20, 4));
    b.node("Conv", {"s", "c3_w"}, {"y"}, "c3");
    b.output("y");
    auto model = b.load();
    const Graph& g = model->graph();
    auto exec = Executor::create(g);
    ASSERT_TRUE(exec);
    const ValueId s = valueNamed(g, "s");
    StorageRecorder seen(s);
    RunOptions options;
    options.observer = &seen;
    ASSERT_TRUE((*exec)->run({{"x", input({1, 64, 16, 16})}}, options));
    ASSERT_EQ(seen.logical[s].size(), 20u * 256);
    double stored = 0, logical = 0;
    for (float v : seen.stored[s]) stored += std::abs(v);
    for (float v : seen.logical[s]) logical += std::abs(v);
    EXPECT_NEAR(stored, logical, 1e-6 * logical) << "padding of a " << seen.stored[s].size() << "-float layout";
    test::expectNearFloats(runOnce(g, true, {1, 64, 16, 16}), runOnce(g, false, {1, 64, 16, 16}));
}

// Records what it is shown; wants only `wanted` (all values when empty).
class Recorder final : public TensorObserver {
public:
    explicit Recorder(std::set<ValueId> wanted = {}) : mWanted(std::move(wanted)) {}
    bool wants(ValueId value) const override { return mWanted.empty() || mWanted.count(value) > 0; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override { seen[value] = tensor.toFloats(); }
    std::map<ValueId, std::vector<float>> seen;

private:
    std::set<ValueId> mWanted;
};

TEST(FusionTest, AnObserverWantingAHiddenTensorStillSeesIt) {
    auto model = convAddRelu();
    const Graph& g = model->graph();
    const ValueId c2 = valueNamed(g, "c2");
    Recorder all;
    RunOptions options;
    options.observer = &all;
    runOnce(g, false, {1, kC, 10, 10}, options);
    ASSERT_EQ(all.seen.count(c2), 1u);

    Recorder onlyC2({c2});
    options.observer = &onlyC2;
    const auto fused = runOnce(g, true, {1, kC, 10, 10}, options);
    ASSERT_EQ(onlyC2.seen.size(), 1u);
    ASSERT_EQ(onlyC2.seen.count(c2), 1u);
    test::expectNearFloats(onlyC2.seen[c2], all.seen[c2]);
    test::expectNearFloats(fused, runOnce(g, false, {1, kC, 10, 10}));

    // r1 stays in oneDNN's layout between the two fused convolutions; the observer still gets NCHW.
    const ValueId r1 = valueNamed(g, "r1");
    Recorder onlyR1({r1});
    options.observer = &onlyR1;
    runOnce(g, true, {1, kC, 10, 10}, options);
    ASSERT_EQ(onlyR1.seen.size(), 1u);
    test::expectNearFloats(onlyR1.seen[r1], all.seen[r1]);
}

TEST(FusionTest, TheDefaultObserverSeesEveryNodeOutputInPlainLayout) {
    auto model = mobileBlock();
    const Graph& g = model->graph();
    Recorder all;
    RunOptions options;
    options.observer = &all;
    runOnce(g, true, {1, kC, 12, 12}, options);
    EXPECT_EQ(all.seen.size(), g.nodes().size());
    Recorder reference;
    options.observer = &reference;
    runOnce(g, false, {1, kC, 12, 12}, options);
    // In plain NCHW order, including tensors that stay in oneDNN's layout between layout-aware nodes.
    for (const auto& [value, floats] : reference.seen) {
        SCOPED_TRACE(g.value(value).name);
        test::expectNearFloats(all.seen[value], floats);
    }
}

// Counts the nodes it is called for, changing nothing.
class CountingInterceptor final : public NodeInterceptor {
public:
    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override {
        for (const Tensor& t : inputs)
            if (!t.isPlain()) return internalError(node.name + " was given a tensor in a oneDNN layout");
        nodes.insert(node.id);
        return Status::ok();
    }
    Status afterNode(const Node& node, std::vector<Tensor>& outputs) override {
        for (const Tensor& t : outputs)
            if (!t.isPlain()) return internalError(node.name + " produced a tensor in a oneDNN layout");
        return Status::ok();
    }
    std::set<NodeId> nodes;
};

TEST(FusionTest, AnInterceptorSeesEveryNodeWithPlainTensors) {
    auto model = mobileBlock();
    CountingInterceptor interceptor;
    RunOptions options;
    options.interceptor = &interceptor;
    const auto out = runOnce(model->graph(), true, {1, kC, 12, 12}, options);
    EXPECT_EQ(interceptor.nodes.size(), model->graph().nodes().size());
    test::expectNearFloats(out, runOnce(model->graph(), false, {1, kC, 12, 12}));
}

// GELU as torch exports it: x / sqrt(2) -> Erf -> + 1 -> x * . -> * 0.5; then c - y and c / that (constants on
// the left), Mul(x, .) with x on the left. `bias` adds a per-column vector after the chain (not a scalar: it
// ends the chain), and `exposeErf` makes the Erf output a graph output.
std::unique_ptr<Model> elementwiseChain(bool exposeErf) {
    ModelBuilder b;
    b.input("x", DataType::Float, {3, 37, 50});
    b.initializer("sqrt2", {}, {1.4142135f});
    b.initializer("one", {}, {1.0f});
    b.initializer("half", {1}, {0.5f});
    b.initializer("three", {}, {3.0f});
    b.initializer("bias", {50}, seededFloats(50, 4));
    b.node("Div", {"x", "sqrt2"}, {"d"});
    b.node("Erf", {"d"}, {"e"});
    b.node("Add", {"e", "one"}, {"a"});
    b.node("Mul", {"x", "a"}, {"m"});
    b.node("Mul", {"m", "half"}, {"gelu"});
    b.node("Sub", {"three", "gelu"}, {"s"});
    b.node("Div", {"one", "s"}, {"r"});
    b.node("Add", {"r", "bias"}, {"y"});
    b.output("y");
    if (exposeErf) b.output("e");
    return b.load();
}

TEST(FusionTest, ElementwiseNodesOnScalarsAndTheirInputBecomeOneChain) {
    for (bool exposeErf : {false, true}) {
        auto model = elementwiseChain(exposeErf);
        const Graph& g = model->graph();
        const auto chains = findElementwiseChains(g, findConvFusions(g));
        ASSERT_EQ(chains.size(), exposeErf ? 2u : 1u);
        const ElementwiseChain& last = chains.back();
        EXPECT_EQ(chains.front().input, valueNamed(g, "x"));
        EXPECT_EQ(last.output, valueNamed(g, "r"));  // the bias is a vector, not a scalar
        if (exposeErf) {
            // A graph output ends a chain: Div -> Erf. Add(e, 1) alone is no chain, and Mul(x, a) reads two
            // tensors; the next chain starts at Mul(m, 0.5).
            EXPECT_EQ(chains.front().output, valueNamed(g, "e"));
            EXPECT_EQ(chains.front().nodes.size(), 2u);
            EXPECT_EQ(last.input, valueNamed(g, "m"));
            EXPECT_EQ(last.nodes.size(), 3u);
        } else {
            EXPECT_EQ(last.nodes.size(), 7u);
            EXPECT_EQ(last.hidden.size(), 6u);
        }
    }
}

TEST(FusionTest, AnElementwiseChainEqualsItsNodesToTheBit) {
    auto model = elementwiseChain(false);
    auto values = seededFloats(3 * 37 * 50, 8, -6.0f, 6.0f);  // beyond erf's +-4 clamp
    values[5] = std::numeric_limits<float>::quiet_NaN();
    values[6] = 0.0f;
    values[7] = -0.0f;
    const Tensor x = Tensor::fromVector<float>(DataType::Float, {3, 37, 50}, values);
    for (int threads : {1, 2}) {
        auto fused = Executor::create(model->graph(), {threads, true});
        auto plain = Executor::create(model->graph(), {threads, false});
        ASSERT_TRUE(fused && plain);
        auto a = (*fused)->run({{"x", x}});
        auto b = (*plain)->run({{"x", x}});
        ASSERT_TRUE(a && b);
        const auto fa = (*a)[0].second.toFloats(), fb = (*b)[0].second.toFloats();
        ASSERT_EQ(fa.size(), fb.size());
        for (size_t i = 0; i < fa.size(); ++i)
            ASSERT_EQ(std::bit_cast<uint32_t>(fa[i]), std::bit_cast<uint32_t>(fb[i])) << "element " << i;
    }
}

}  // namespace
}  // namespace ql
