#include "core/exec/kernels/gru.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/recurrent_reference.h"

namespace ql::test {

namespace {

void expectMatchesReference(const RecurrentCase& c) {
    const NamedTensors inputs = recurrentInputs(c);
    auto out = runRecurrent(c, inputs);
    ASSERT_TRUE(out) << out.status().message();
    const RecurrentResult expected = referenceRecurrent(c, inputs);
    SCOPED_TRACE(c.direction + " layout " + std::to_string(c.layout) + (c.linearBeforeReset ? " lbr" : ""));
    expectNear((*out)[0], expected.y);
    expectNear((*out)[1], expected.yh);
}

}  // namespace

TEST(GruTest, OneStepByHand) {
    // One unit, weights 0.5, zero initial state: z = r = sigmoid(0.5), h' = tanh(0.5), H = (1 - z) h'.
    const NamedTensors inputs{{"X", floats({1, 1, 1}, {1})},
                              {"W", floats({1, 3, 1}, {0.5f, 0.5f, 0.5f})},
                              {"R", floats({1, 3, 1}, {0.5f, 0.5f, 0.5f})}};
    auto out = runNode(
        NodeSpec("GRU", inputs, {DataType::Float, DataType::Float}, 14, [](NodeBuilder& n) { n.i("hidden_size", 1); }));
    ASSERT_TRUE(out) << out.status().message();
    const float z = 1.0f / (1.0f + std::exp(-0.5f));
    expectNear((*out)[1], {(1 - z) * std::tanh(0.5f)});
}

TEST(GruTest, MatchesTheReferenceInEveryDirectionLayoutAndResetForm) {
    for (const char* direction : {"forward", "reverse", "bidirectional"})
        for (int64_t layout : {0, 1})
            for (bool linearBeforeReset : {false, true}) {
                RecurrentCase c;
                c.cell = Cell::Gru, c.seq = 5, c.batch = 3, c.input = 4, c.hidden = 6;
                c.direction = direction, c.layout = layout, c.linearBeforeReset = linearBeforeReset;
                c.withLengths = linearBeforeReset, c.withInitial = !linearBeforeReset;
                expectMatchesReference(c);
            }
}

TEST(GruTest, ClipWithoutBiasAndOpset7) {
    RecurrentCase c;
    c.cell = Cell::Gru, c.clip = 0.2f, c.withBias = false, c.opset = 7, c.direction = "bidirectional";
    expectMatchesReference(c);
}

TEST(GruTest, OpsetAbove17KeepsTheSameForm) {
    RecurrentCase c;
    c.cell = Cell::Gru, c.opset = 22, c.layout = 1, c.withLengths = true, c.withInitial = true;
    expectMatchesReference(c);
}

TEST(GruTest, ASequenceLengthBeyondTheSequenceIsAnErrorNamingTheNode) {
    RecurrentCase c;
    c.cell = Cell::Gru;
    NamedTensors inputs = recurrentInputs(c);
    inputs.resize(4);
    inputs.emplace_back("sequence_lens", Tensor::fromVector(DataType::Int32, {2}, std::vector<int32_t>{3, 9}));
    auto out = runRecurrent(c, inputs);
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (GRU): a sequence length (9) is outside [0, 3]"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
