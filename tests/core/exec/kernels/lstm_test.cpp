#include "core/exec/kernels/lstm.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"
#include "tests/core/exec/kernels/recurrent_reference.h"

namespace ql::test {

namespace {

void expectMatchesReference(const RecurrentCase& c) {
    const NamedTensors inputs = recurrentInputs(c);
    auto out = runRecurrent(c, inputs);
    ASSERT_TRUE(out) << out.status().message();
    const RecurrentResult expected = referenceRecurrent(c, inputs);
    SCOPED_TRACE(c.direction + " layout " + std::to_string(c.layout) + (c.withLengths ? " lengths" : "") +
                 (c.withInitial ? " initial" : ""));
    expectNear((*out)[0], expected.y);
    expectNear((*out)[1], expected.yh);
    if (out->size() > 2) expectNear((*out)[2], expected.yc);
}

}  // namespace

TEST(LstmTest, OneStepByHand) {
    // One input, one hidden unit, every weight 0.5, no bias: every gate's input is 0.5.
    const NamedTensors inputs{{"X", floats({1, 1, 1}, {1})},
                              {"W", floats({1, 4, 1}, {0.5f, 0.5f, 0.5f, 0.5f})},
                              {"R", floats({1, 4, 1}, {0.5f, 0.5f, 0.5f, 0.5f})}};
    auto out = runNode(NodeSpec("LSTM", inputs, {DataType::Float, DataType::Float, DataType::Float}, 14,
                                [](NodeBuilder& n) { n.i("hidden_size", 1); }));
    ASSERT_TRUE(out) << out.status().message();
    const float gate = 1.0f / (1.0f + std::exp(-0.5f)), cell = gate * std::tanh(0.5f), h = gate * std::tanh(cell);
    EXPECT_EQ((*out)[0].shape(), (Shape{1, 1, 1, 1}));
    expectNear((*out)[0], {h});
    expectNear((*out)[1], {h});
    expectNear((*out)[2], {cell});
}

TEST(LstmTest, MatchesTheReferenceInEveryDirectionLayoutAndOptionalInput) {
    for (const char* direction : {"forward", "reverse", "bidirectional"})
        for (int64_t layout : {0, 1})
            for (bool lengths : {false, true}) {
                RecurrentCase c;
                c.cell = Cell::Lstm, c.seq = 4, c.batch = 3, c.input = 5, c.hidden = 7;
                c.direction = direction, c.layout = layout, c.withLengths = lengths;
                c.withInitial = lengths, c.withPeepholes = !lengths;
                expectMatchesReference(c);
            }
}

TEST(LstmTest, InputForgetClipAndNoBias) {
    RecurrentCase c;
    c.cell = Cell::Lstm, c.seq = 5, c.batch = 2, c.input = 3, c.hidden = 6, c.direction = "bidirectional";
    c.inputForget = true, c.clip = 0.3f, c.withBias = false, c.withInitial = true;
    expectMatchesReference(c);
}

TEST(LstmTest, Opset7FormWithoutLayout) {
    RecurrentCase c;
    c.cell = Cell::Lstm, c.opset = 7, c.withInitial = true;
    expectMatchesReference(c);
}

TEST(LstmTest, OpsetAbove17KeepsTheSameForm) {
    RecurrentCase c;
    c.cell = Cell::Lstm, c.opset = 22, c.layout = 1, c.direction = "reverse", c.withLengths = true;
    expectMatchesReference(c);
}

TEST(LstmTest, Float16InputsAreComputedInFloatAndRounded) {
    RecurrentCase c;
    c.cell = Cell::Lstm;
    NamedTensors inputs = recurrentInputs(c);
    const RecurrentResult expected = referenceRecurrent(c, inputs);
    for (auto& [name, t] : inputs) t = fromFloatTensor(t, DataType::Float16);
    auto out = runNode(NodeSpec("LSTM", inputs, {DataType::Float16, DataType::Float16}, 14,
                                [&](NodeBuilder& n) { n.i("hidden_size", c.hidden); }));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ((*out)[0].dtype(), DataType::Float16);
    expectNear((*out)[1], expected.yh, 1e-2f);
}

TEST(LstmTest, WeightsOfTheWrongShapeAreAnErrorNamingTheNode) {
    RecurrentCase c;
    NamedTensors inputs = recurrentInputs(c);
    inputs[1].second = floats({1, 12, 5}, std::vector<float>(60, 0.1f));  // 3 gates' rows, not 4
    auto out = runRecurrent(c, inputs);
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (LSTM): W has shape [1,12,5]; it must be [1,16,5]"), std::string::npos)
        << out.status().message();
}

TEST(LstmTest, AnUnknownActivationIsRefusedWhenTheExecutorIsBuilt) {
    RecurrentCase c;
    auto out = runNode(NodeSpec("LSTM", recurrentInputs(c), {DataType::Float}, 14, [](NodeBuilder& n) {
        n.i("hidden_size", 4).s("direction", "forward");
        auto* attr = n.proto()->add_attribute();
        attr->set_name("activations");
        attr->set_type(onnx::AttributeProto::STRINGS);
        for (const char* f : {"Sigmoid", "Swish", "Tanh"}) attr->add_strings(f);
    }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("activation 'Swish' is not one ONNX defines"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
