// Existing Q/DQ pairs are recognised and linked to the layer input they quantize.
#include <gtest/gtest.h>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// x -Q-DQ-> Conv <-DQ- int8 weights (per channel, axis 0)
ModelBuilder qdqConv(int64_t weightAxis = 0) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("x_scale", DataType::Float, {}, {0.02});
    b.initializer("x_zp", DataType::Int8, {}, {0});
    b.initializer("w_q", DataType::Int8, {4, 3, 3, 3}, std::vector<double>(108, 5.0));
    b.initializer("w_scale", DataType::Float, {4}, {0.1, 0.2, 0.3, 0.4});
    b.initializer("w_zp", DataType::Int8, {4}, {0, 0, 0, 0});
    b.node("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"x_q"}, "x_quant");
    b.node("DequantizeLinear", {"x_q", "x_scale", "x_zp"}, {"x_dq"}, "x_dequant");
    b.node("DequantizeLinear", {"w_q", "w_scale", "w_zp"}, {"w_dq"}, "w_dequant").i("axis", weightAxis);
    b.node("Conv", {"x_dq", "w_dq"}, {"y"}, "conv");
    b.output("y");
    return b;
}

TEST(QdqLinksTest, ActivationPairIsLinkedToTheConvInput) {
    auto model = qdqConv().load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    ASSERT_EQ(g.qdqLinks().size(), 2u);
    const QdqLink* act = nullptr;
    for (const auto& l : g.qdqLinks())
        if (!l.isWeight) act = &l;
    ASSERT_NE(act, nullptr);
    EXPECT_EQ(g.node(act->quantize).name, "x_quant");
    EXPECT_EQ(g.node(act->dequantize).name, "x_dequant");
    EXPECT_EQ(g.node(act->layer).name, "conv");
    EXPECT_EQ(act->layerInput, 0);
    EXPECT_EQ(g.value(act->source).name, "x");
    EXPECT_TRUE(act->paramsKnown);
    ASSERT_EQ(act->params.scales.size(), 1u);
    EXPECT_FLOAT_EQ(act->params.scales[0], 0.02f);
    EXPECT_EQ(act->params.quantType, DataType::Int8);
    EXPECT_FALSE(act->params.perChannel());
}

TEST(QdqLinksTest, PerChannelWeightIsLinkedWithItsAxis) {
    auto model = qdqConv(0).load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    const QdqLink* w = nullptr;
    for (const auto& l : g.qdqLinks())
        if (l.isWeight) w = &l;
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->quantize, kNoId);
    EXPECT_EQ(g.node(w->layer).name, "conv");
    EXPECT_EQ(w->layerInput, 1);
    EXPECT_TRUE(w->params.perChannel());
    EXPECT_EQ(w->params.axis, 0);
    EXPECT_EQ(w->params.scales.size(), 4u);
    EXPECT_FLOAT_EQ(w->params.scales[3], 0.4f);
}

TEST(QdqLinksTest, AxisAttributeIsReadAsWritten) {
    auto model = qdqConv(1).load();
    ASSERT_TRUE(model);
    for (const auto& l : model->graph().qdqLinks()) {
        if (l.isWeight) {
            EXPECT_EQ(l.params.axis, 1);
        }
    }
}

TEST(QdqLinksTest, LinkLooksThroughTransposeToMatMul) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 4});
    b.initializer("w_q", DataType::Int8, {3, 4}, std::vector<double>(12, 1.0));
    b.initializer("s", DataType::Float, {}, {0.5});
    b.node("DequantizeLinear", {"w_q", "s"}, {"w_dq"}, "dq");
    b.node("Transpose", {"w_dq"}, {"w_t"}, "t");
    b.node("MatMul", {"x", "w_t"}, {"y"}, "mm");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    ASSERT_EQ(g.qdqLinks().size(), 1u);
    EXPECT_EQ(g.node(g.qdqLinks()[0].layer).name, "mm");
    EXPECT_EQ(g.qdqLinks()[0].layerInput, 1);
    EXPECT_TRUE(g.qdqLinks()[0].isWeight);
}

TEST(QdqLinksTest, SharedDequantizeLinksEveryConsumer) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer("s", DataType::Float, {}, {0.1});
    b.initializer("zp", DataType::UInt8, {}, {128});
    b.node("QuantizeLinear", {"x", "s", "zp"}, {"q"}, "q");
    b.node("DequantizeLinear", {"q", "s", "zp"}, {"dq"}, "dq");
    b.node("Relu", {"dq"}, {"a"}, "relu");
    b.node("Add", {"dq", "a"}, {"y"}, "add");
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    const Graph& g = model->graph();
    ASSERT_EQ(g.qdqLinks().size(), 2u);
    EXPECT_EQ(g.qdqLinks()[0].params.zeroPoints.at(0), 128);
    EXPECT_EQ(g.qdqLinks()[0].params.quantType, DataType::UInt8);
}

TEST(QdqLinksTest, PlainModelHasNoLinks) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"});
    b.output("y");
    auto model = b.load();
    ASSERT_TRUE(model);
    EXPECT_TRUE(model->graph().qdqLinks().empty());
}

}  // namespace
}  // namespace ql
