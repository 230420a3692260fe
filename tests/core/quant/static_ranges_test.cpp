// Static ranges: the bounds ops give their outputs by construction, carried through data movement, Q/DQ pairs and
// arithmetic with constants; an op that bounds nothing leaves the value unbounded.
#include "core/quant/static_ranges.h"

#include <gtest/gtest.h>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// The range of `value` in `model`.
StaticRange rangeOf(const Model& model, const std::string& value) {
    const Graph& graph = model.graph();
    const auto id = graph.findValue(value);
    EXPECT_TRUE(id.has_value()) << value;
    return StaticRanges(graph).of(id.value_or(kNoId));
}

void expectRange(const StaticRange& r, double lo, double hi) {
    EXPECT_DOUBLE_EQ(r.lo, lo);
    EXPECT_DOUBLE_EQ(r.hi, hi);
}

TEST(StaticRangesTest, BoundingActivationsNameTheirNode) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.node("Sigmoid", {"x"}, {"sig"}, "sigmoid");
    b.node("Softmax", {"x"}, {"soft"}, "softmax").i("axis", 1);
    b.node("Tanh", {"x"}, {"tanh"}, "tanh");
    b.node("HardSigmoid", {"x"}, {"hard"}, "hard").f("alpha", 0.1f).f("beta", 0.2f);
    b.node("LogSoftmax", {"x"}, {"logsoft"}, "logsoftmax").i("axis", 1);
    for (const char* out : {"sig", "soft", "tanh", "hard", "logsoft"}) b.output(out);
    const auto model = b.load();
    const Graph& graph = model->graph();
    const StaticRange sig = rangeOf(*model, "sig");
    expectRange(sig, 0.0, 1.0);
    ASSERT_NE(sig.bounder, kNoId);
    EXPECT_EQ(graph.node(sig.bounder).name, "sigmoid");
    expectRange(rangeOf(*model, "soft"), 0.0, 1.0);
    expectRange(rangeOf(*model, "tanh"), -1.0, 1.0);
    expectRange(rangeOf(*model, "hard"), 0.0, 1.0);
    // Bounded above only: not a bound a scale can be judged by.
    const StaticRange logsoft = rangeOf(*model, "logsoft");
    EXPECT_DOUBLE_EQ(logsoft.hi, 0.0);
    EXPECT_FALSE(logsoft.bounded());
}

// HardSigmoid of a bounded input: alpha * x + beta, clamped to [0, 1].
TEST(StaticRangesTest, HardSigmoidUsesItsAlphaAndBeta) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.node("Tanh", {"x"}, {"t"}, "tanh");
    b.node("HardSigmoid", {"t"}, {"y"}, "hard").f("alpha", 0.25f).f("beta", 0.5f);
    b.output("y");
    expectRange(rangeOf(*b.load(), "y"), 0.25, 0.75);
}

TEST(StaticRangesTest, ClipTakesItsLimitsFromInputsOrAttributes) {
    ModelBuilder b;  // opset 13: min and max are inputs; Relu6 is Clip(0, 6)
    b.input("x", DataType::Float, {1, 8});
    b.initializer("zero", {}, {0.0f});
    b.initializer("six", {}, {6.0f});
    b.node("Clip", {"x", "zero", "six"}, {"relu6"}, "relu6");
    b.node("Clip", {"x", "zero"}, {"lower"}, "lower_only");
    b.output("relu6");
    b.output("lower");
    const auto model = b.load();
    expectRange(rangeOf(*model, "relu6"), 0.0, 6.0);
    EXPECT_FALSE(rangeOf(*model, "lower").bounded());

    ModelBuilder old(6);  // opset 6: attributes
    old.input("x", DataType::Float, {1, 8});
    old.node("Clip", {"x"}, {"y"}, "clip").f("min", -2.0f).f("max", 3.0f);
    old.output("y");
    expectRange(rangeOf(*old.load(), "y"), -2.0, 3.0);
}

TEST(StaticRangesTest, ReluKeepsABoundedInputBoundedAndAnUnboundedOneUnbounded) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("Tanh", {"x"}, {"t"}, "tanh");
    b.node("Relu", {"t"}, {"rt"}, "relu_tanh");
    b.output("r");
    b.output("rt");
    const auto model = b.load();
    const StaticRange r = rangeOf(*model, "r");
    EXPECT_DOUBLE_EQ(r.lo, 0.0);
    EXPECT_FALSE(r.bounded());
    const StaticRange rt = rangeOf(*model, "rt");
    expectRange(rt, 0.0, 1.0);
    EXPECT_EQ(model->graph().node(rt.bounder).name, "tanh");  // the Relu passes the Tanh's bound on
}

TEST(StaticRangesTest, CastFromBoolIsZeroOrOne) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.initializer("threshold", {}, {0.5f});
    b.node("Greater", {"x", "threshold"}, {"mask"}, "greater");
    b.node("Cast", {"mask"}, {"y"}, "cast").i("to", static_cast<int64_t>(DataType::Float));
    b.output("y");
    const auto model = b.load();
    const StaticRange y = rangeOf(*model, "y");
    expectRange(y, 0.0, 1.0);
    EXPECT_EQ(model->graph().node(y.bounder).name, "cast");
}

TEST(StaticRangesTest, ConstantsAreTheirMinAndMaxAndSmallIntegerInputsTheirType) {
    ModelBuilder b;
    b.input("image", DataType::UInt8, {1, 3, 4, 4});
    b.initializer("table", {3, 2}, {-2.0f, 0.5f, 7.0f, 1.0f, 0.0f, 3.0f});
    b.node("Cast", {"image"}, {"pixels"}, "cast").i("to", static_cast<int64_t>(DataType::Float));
    b.output("pixels");
    const auto model = b.load();
    expectRange(rangeOf(*model, "table"), -2.0, 7.0);
    expectRange(rangeOf(*model, "pixels"), 0.0, 255.0);
}

// Reshape, Transpose, a Q -> DQ pair and MaxPool keep the bound; Concat unites its inputs' bounds; Pad adds its
// constant; Mul and Add by constants scale and shift it.
TEST(StaticRangesTest, DataMovementQdqAndArithmeticCarryTheBound) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("shape", DataType::Int64, {2}, {1, 32});
    b.initializer("scale", {}, {0.01f});
    b.initializer("zp", DataType::Int8, {}, {0});
    b.initializer("pads", DataType::Int64, {4}, {0, 2, 0, 0});
    b.initializer("fill", {}, {5.0f});
    b.initializer("stride", {}, {640.0f});
    b.initializer("offset", {}, {-1.0f});
    b.node("Sigmoid", {"x"}, {"sig"}, "sigmoid");
    b.node("Tanh", {"x"}, {"tanh"}, "tanh");
    b.node("MaxPool", {"sig"}, {"pooled"}, "pool").ints("kernel_shape", {2, 2});
    b.node("Reshape", {"pooled", "shape"}, {"flat"}, "reshape");
    b.node("Transpose", {"flat"}, {"t"}, "transpose").ints("perm", {1, 0});
    b.node("QuantizeLinear", {"t", "scale", "zp"}, {"q"}, "q");
    b.node("DequantizeLinear", {"q", "scale", "zp"}, {"dq"}, "dq");
    b.node("Concat", {"sig", "tanh"}, {"both"}, "concat").i("axis", 1);
    b.node("Pad", {"flat", "pads", "fill"}, {"padded"}, "pad");
    b.node("Mul", {"sig", "stride"}, {"pixels"}, "to_pixels");
    b.node("Add", {"sig", "offset"}, {"shifted"}, "shift");
    for (const char* out : {"dq", "both", "padded", "pixels", "shifted"}) b.output(out);
    const auto model = b.load();
    const StaticRange dq = rangeOf(*model, "dq");
    expectRange(dq, 0.0, 1.0);
    EXPECT_EQ(model->graph().node(dq.bounder).name, "sigmoid");
    const StaticRange both = rangeOf(*model, "both");
    expectRange(both, -1.0, 1.0);
    EXPECT_EQ(both.bounder, kNoId);  // two bounding nodes
    expectRange(rangeOf(*model, "padded"), 0.0, 5.0);
    expectRange(rangeOf(*model, "pixels"), 0.0, 640.0);
    expectRange(rangeOf(*model, "shifted"), -1.0, 0.0);
}

// What only constants reach is marked: the rule leaves weights and folded expressions alone.
TEST(StaticRangesTest, ValuesComputedFromConstantsAloneAreMarked) {
    ModelBuilder b;
    b.input("indices", DataType::Int64, {2});
    b.initializer("table", {4, 2}, test::seededFloats(8));
    b.initializer("shape", DataType::Int64, {1}, {8});
    b.node("Reshape", {"table", "shape"}, {"flat"}, "reshape");
    b.node("Gather", {"table", "indices"}, {"rows"}, "gather");
    b.output("flat");
    b.output("rows");
    const auto model = b.load();
    EXPECT_TRUE(rangeOf(*model, "table").constant);
    EXPECT_TRUE(rangeOf(*model, "flat").constant);
    const StaticRange rows = rangeOf(*model, "rows");
    EXPECT_FALSE(rows.constant);
    EXPECT_TRUE(rows.bounded());  // the table's rows: within its min and max
}

TEST(StaticRangesTest, WhatNothingBoundsStaysUnbounded) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.initializer("w", {2, 2, 1, 1}, test::seededFloats(4));
    b.node("Sigmoid", {"x"}, {"sig"}, "sigmoid");
    b.node("Conv", {"sig", "w"}, {"conv"}, "conv");  // a Conv's output is not bounded here
    b.node("Concat", {"sig", "x"}, {"mixed"}, "concat").i("axis", 1);
    b.node("Custom", {"sig"}, {"custom"}, "custom").domain("com.example");
    b.opset("com.example", 1);
    for (const char* out : {"conv", "mixed", "custom"}) b.output(out);
    const auto model = b.load();
    for (const char* value : {"x", "conv", "mixed", "custom"}) EXPECT_FALSE(rangeOf(*model, value).bounded()) << value;
    EXPECT_FALSE(StaticRanges(model->graph()).bounded(kNoId).has_value());
}

}  // namespace
}  // namespace ql
