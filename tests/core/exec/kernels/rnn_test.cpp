#include "core/exec/kernels/rnn.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/core/exec/kernels/recurrent_reference.h"

namespace ql::test {

namespace {

void setActivations(NodeBuilder& n, const std::vector<std::string>& names) {
    auto* attr = n.proto()->add_attribute();
    attr->set_name("activations");
    attr->set_type(onnx::AttributeProto::STRINGS);
    for (const auto& f : names) attr->add_strings(f);
}

}  // namespace

TEST(RnnTest, MatchesTheReferenceInEveryDirectionAndLayout) {
    for (const char* direction : {"forward", "reverse", "bidirectional"})
        for (int64_t layout : {0, 1}) {
            RecurrentCase c;
            c.cell = Cell::Rnn, c.seq = 6, c.batch = 3, c.input = 2, c.hidden = 5;
            c.direction = direction, c.layout = layout, c.withLengths = layout == 1, c.withInitial = true;
            const NamedTensors inputs = recurrentInputs(c);
            auto out = runRecurrent(c, inputs);
            ASSERT_TRUE(out) << out.status().message();
            const RecurrentResult expected = referenceRecurrent(c, inputs);
            SCOPED_TRACE(c.direction + " layout " + std::to_string(layout));
            expectNear((*out)[0], expected.y);
            expectNear((*out)[1], expected.yh);
        }
}

TEST(RnnTest, ActivationsPerDirectionTakeTheirAlphaInOrder) {
    // Two steps of one unit, W = 1, R = 1, no bias; forward LeakyRelu(alpha 0.1), reverse Affine(2, 1).
    const NamedTensors inputs{
        {"X", floats({2, 1, 1}, {-1, 3})}, {"W", floats({2, 1, 1}, {1, 1})}, {"R", floats({2, 1, 1}, {1, 1})}};
    auto out = runNode(NodeSpec("RNN", inputs, {DataType::Float, DataType::Float}, 14, [](NodeBuilder& n) {
        n.i("hidden_size", 1).s("direction", "bidirectional");
        setActivations(n, {"LeakyRelu", "Affine"});
        n.floats("activation_alpha", {0.1f, 2.0f}).floats("activation_beta", {1.0f});
    }));
    ASSERT_TRUE(out) << out.status().message();
    // Forward: h1 = leaky(-1) = -0.1; h2 = leaky(3 - 0.1) = 2.9. Reverse from t=1: h = 2*3+1 = 7; then 2*(-1+7)+1 = 13.
    EXPECT_EQ((*out)[0].shape(), (Shape{2, 2, 1, 1}));
    expectNear((*out)[0], {-0.1f, 13, 2.9f, 7});
    expectNear((*out)[1], {2.9f, 13});
}

TEST(RnnTest, AWrongNumberOfActivationsIsRefused) {
    RecurrentCase c;
    c.cell = Cell::Rnn;
    auto out = runNode(NodeSpec("RNN", recurrentInputs(c), {DataType::Float}, 14, [](NodeBuilder& n) {
        n.i("hidden_size", 4);
        setActivations(n, {"Tanh", "Relu"});
    }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("'activations' lists 2 functions; this op takes 1 per direction"),
              std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
