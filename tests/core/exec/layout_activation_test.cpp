#include "core/exec/layout_activation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "core/exec/executor.h"
#include "core/exec/layout.h"
#include "tests/core/exec/exec_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

// 12 channels: oneDNN's blocked layouts pad them to 16, so activations whose f(0) != 0 (Sigmoid, HardSigmoid,
// Elu's neighbours) would show up in the next convolution if the padding were computed wrongly.
constexpr int64_t kC = 12;
const Shape kInput = {2, kC, 9, 9};

void conv(ModelBuilder& b, const std::string& x, const std::string& y, uint32_t seed) {
    b.initializer(y + "_w", {kC, kC, 3, 3}, seededFloats(static_cast<size_t>(kC * kC * 9), seed, -0.3f, 0.3f));
    b.initializer(y + "_b", {kC}, seededFloats(static_cast<size_t>(kC), seed + 1));
    b.node("Conv", {x, y + "_w", y + "_b"}, {y}, y).ints("pads", {1, 1, 1, 1});
}

using AddActivation = std::function<void(ModelBuilder&, const std::string& x, const std::string& y)>;

const std::map<std::string, AddActivation>& activations() {
    static const std::map<std::string, AddActivation> all = {
        {"Relu", [](ModelBuilder& b, const std::string& x, const std::string& y) { b.node("Relu", {x}, {y}); }},
        {"LeakyRelu", [](ModelBuilder& b, const std::string& x,
                         const std::string& y) { b.node("LeakyRelu", {x}, {y}).f("alpha", 0.3f); }},
        {"Clip",
         [](ModelBuilder& b, const std::string& x, const std::string& y) {
             b.initializer(y + "_lo", {}, {-0.5f});
             b.initializer(y + "_hi", {}, {0.75f});
             b.node("Clip", {x, y + "_lo", y + "_hi"}, {y});
         }},
        {"HardSigmoid", [](ModelBuilder& b, const std::string& x,
                           const std::string& y) { b.node("HardSigmoid", {x}, {y}).f("alpha", 0.3f).f("beta", 0.4f); }},
        {"Sigmoid", [](ModelBuilder& b, const std::string& x, const std::string& y) { b.node("Sigmoid", {x}, {y}); }},
        {"Tanh", [](ModelBuilder& b, const std::string& x, const std::string& y) { b.node("Tanh", {x}, {y}); }},
        {"Elu",
         [](ModelBuilder& b, const std::string& x, const std::string& y) { b.node("Elu", {x}, {y}).f("alpha", 0.7f); }},
        {"HardSwish",
         [](ModelBuilder& b, const std::string& x, const std::string& y) { b.node("HardSwish", {x}, {y}); }},
    };
    return all;
}

// x -> Conv -> act -> Conv -> MaxPool -> act -> Conv -> y: the first activation is fused into its Conv unless
// a run observes the Conv's output; the second follows a layout-aware pooling and is never fused.
std::unique_ptr<Model> network(const AddActivation& act) {
    ModelBuilder b(14);  // HardSwish
    b.input("x", DataType::Float, kInput);
    conv(b, "x", "c1", 1);
    act(b, "c1", "a1");
    conv(b, "a1", "c2", 3);
    b.node("MaxPool", {"c2"}, {"p"}).ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    act(b, "p", "a2");
    conv(b, "a2", "y", 5);
    b.output("y");
    return b.load();
}

// Records every tensor it sees (as NCHW floats) and whether it came in a oneDNN layout.
class Recorder final : public TensorObserver {
public:
    explicit Recorder(bool layouts) : mLayouts(layouts) {}
    bool acceptsLayouts() const override { return mLayouts; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        plain[value] = tensor.isPlain();
        seen[value] = onednn::toPlain(tensor).toFloats();
    }
    std::map<ValueId, std::vector<float>> seen;
    std::map<ValueId, bool> plain;

private:
    bool mLayouts;
};

std::vector<float> run(const Graph& graph, bool fuse, TensorObserver* observer = nullptr) {
    RunOptions options;
    options.observer = observer;
    return test::runOnX(
        graph,
        Tensor::fromVector<float>(DataType::Float, kInput,
                                  seededFloats(static_cast<size_t>(shapeElementCount(kInput)), 7, -2, 2)),
        fuse, options);
}

TEST(LayoutActivationTest, EveryActivationGivesTheOutputsOfTheUnfusedRun) {
    for (const auto& [name, act] : activations()) {
        SCOPED_TRACE(name);
        auto model = network(act);
        const Graph& g = model->graph();
        const std::vector<float> reference = run(g, false);
        test::expectNearFloats(run(g, true), reference);
        // Observing everything splits the fused groups: the activations then run on their own, in layout.
        Recorder all(true);
        test::expectNearFloats(run(g, true, &all), reference);
        Recorder plainReference(false);
        run(g, false, &plainReference);
        for (const auto& [value, floats] : plainReference.seen) {
            SCOPED_TRACE(g.value(value).name);
            test::expectNearFloats(all.seen[value], floats);
        }
    }
}

TEST(LayoutActivationTest, AnObserverOfAFusedConvOutputGetsItInLayoutWithoutReorders) {
    auto model = network(activations().at("Relu"));
    const Graph& g = model->graph();
    Recorder layouts(true);
    run(g, true, &layouts);
    // The hidden Conv output, its activation and the pooled activation all stay in oneDNN's layout.
    for (const char* name : {"c1", "a1", "c2", "a2"}) {
        const ValueId v = *g.findValue(name);
        ASSERT_EQ(layouts.plain.count(v), 1u) << name;
        EXPECT_FALSE(layouts.plain[v]) << name << " came in plain NCHW";
    }
    // A Sigmoid is not wrapped (oneDNN rounds it differently from the Sigmoid kernel the INT8 simulation runs):
    // the pooled tensor it reads is handed to it in NCHW.
    auto sigmoid = network(activations().at("Sigmoid"));
    Recorder sigmoidLayouts(true);
    run(sigmoid->graph(), true, &sigmoidLayouts);
    EXPECT_TRUE(sigmoidLayouts.plain[*sigmoid->graph().findValue("a2")]);
    // An observer that wants plain tensors gets plain ones.
    Recorder plain(false);
    run(g, true, &plain);
    for (const auto& [value, isPlain] : plain.plain) EXPECT_TRUE(isPlain) << g.value(value).name;
}

}  // namespace
}  // namespace ql
