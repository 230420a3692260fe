// The engine TensorRT would build, predicted on hand-built graphs: fusions (Conv+BN+Relu+Add, SiLU), Q/DQ absorbed,
// an FP16 island between INT8 convolutions and its reformats, depthwise convolutions, attention in a Myelin region.
#include <gtest/gtest.h>

#include "core/engine/engine_prediction.h"
#include "core/engine/gpu_specs.h"
#include "core/engine/latency_model.h"
#include "core/engine/prediction_report.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"
#include "core/model/subgraph_model.h"
#include "core/quant/default_placement.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

const TrtTarget kTrt10{TrtVersion::Trt10, TrtTyping::Strong};
const TrtTarget kTrt86{TrtVersion::Trt86, TrtTyping::Weak};

std::vector<std::string> names(const Graph& graph, const PredictedLayer& layer) {
    std::vector<std::string> out;
    for (NodeId n : layer.nodes) out.push_back(graph.node(n).name);
    return out;
}

size_t countKind(const EnginePrediction& p, PredictedKind kind) {
    return static_cast<size_t>(
        std::count_if(p.layers.begin(), p.layers.end(), [&](const PredictedLayer& l) { return l.kind == kind; }));
}

const PredictedLayer* layerWith(const Graph& graph, const EnginePrediction& p, const std::string& node) {
    for (const PredictedLayer& layer : p.layers)
        for (NodeId n : layer.nodes)
            if (graph.node(n).name == node) return &layer;
    return nullptr;
}

void conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t cin,
          int64_t cout, int64_t group = 1) {
    b.initializer(name + ".w", {cout, cin / group, 3, 3}, seededFloats(static_cast<size_t>(cout * cin / group * 9)));
    b.initializer(name + ".b", {cout}, seededFloats(static_cast<size_t>(cout)));
    b.node("Conv", {in, name + ".w", name + ".b"}, {out}, name).ints("pads", {1, 1, 1, 1}).i("group", group);
}

void batchNorm(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& out, int64_t c) {
    const std::vector<float> ones(static_cast<size_t>(c), 1.0f), zeros(static_cast<size_t>(c), 0.0f);
    b.initializer(name + ".s", {c}, ones);
    b.initializer(name + ".bias", {c}, zeros);
    b.initializer(name + ".m", {c}, zeros);
    b.initializer(name + ".v", {c}, ones);
    b.node("BatchNormalization", {in, name + ".s", name + ".bias", name + ".m", name + ".v"}, {out}, name);
}

// x -> conv1 -> bn1 -> relu1 -> conv2 -> bn2 -> add(+x) -> relu2: a ResNet basic block.
std::unique_ptr<Model> residualBlock() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    conv(b, "conv1", "x", "c1", 16, 16);
    batchNorm(b, "bn1", "c1", "b1", 16);
    b.node("Relu", {"b1"}, {"r1"}, "relu1");
    conv(b, "conv2", "r1", "c2", 16, 16);
    batchNorm(b, "bn2", "c2", "b2", 16);
    b.node("Add", {"b2", "x"}, {"a"}, "add");
    b.node("Relu", {"a"}, {"y"}, "relu2");
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, FusesConvBatchNormReluAndResidualAdd) {
    const auto model = residualBlock();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp16), kTrt10);
    // Input reformat (FP32 linear -> FP16 HWC8) and two fused convolutions, the last one writing the FP32 output.
    ASSERT_EQ(p.layers.size(), 3u);
    EXPECT_EQ(p.reformatCount(), 1u);
    EXPECT_EQ(names(graph, p.layers[1]), (std::vector<std::string>{"conv1", "bn1", "relu1"}));
    EXPECT_EQ(names(graph, p.layers[2]), (std::vector<std::string>{"conv2", "bn2", "add", "relu2"}));
    EXPECT_EQ(p.layers[1].name, "conv1 + bn1 + relu1");
    EXPECT_EQ(p.layers[2].kind, PredictedKind::Convolution);
    EXPECT_EQ(p.layers[2].precision, EnginePrecision::Fp16);
    EXPECT_EQ(p.layers[2].inputs.size(), 2u);  // the residual is read by the fused layer
    EXPECT_EQ(p.layers[0].kind, PredictedKind::Reformat);
    EXPECT_EQ(p.layers[0].outputs[0].layout, EngineLayout::Hwc8);
    EXPECT_EQ(p.layers[0].feeds, 1u);
    EXPECT_EQ(p.layers[2].outputs[0].precision, EnginePrecision::Fp32);
    EXPECT_EQ(p.layers[2].outputs[0].layout, EngineLayout::Linear);
    // 16x16x9 MACs per output element, 8x8 of them; FP16 pads nothing at 16 channels.
    EXPECT_EQ(p.layers[1].macs, 16 * 16 * 9 * 64);
}

TEST(EnginePredictionTest, Fp32EngineNeedsNoReformats) {
    const auto model = residualBlock();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp32), kTrt86);
    EXPECT_EQ(p.layers.size(), 2u);
    EXPECT_EQ(p.reformatCount(), 0u);
    EXPECT_EQ(p.layers[0].inputs[0].layout, EngineLayout::Linear);
}

// What the L2 cache may hold (latency_model.h): the activations a layer reads that another layer wrote, not the graph
// input the first layer reads.
TEST(EnginePredictionTest, CountsTheActivationsReadThatAnotherLayerWrote) {
    const auto model = residualBlock();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp32), kTrt86);
    ASSERT_EQ(p.layers.size(), 2u);
    const int64_t activation = 16 * 8 * 8 * 4;               // one [1, 16, 8, 8] FP32 tensor
    EXPECT_EQ(p.layers[0].activationBytesRead, 0);           // conv1 reads x, the graph input
    EXPECT_EQ(p.layers[1].activationBytesRead, activation);  // conv2 reads relu1's output (and x, a graph input)
    EXPECT_GT(p.layers[1].bytes, p.layers[1].activationBytesRead);
}

// x -> Q -> DQ -> conv1(DQ(w1)) -> relu -> Q -> DQ -> conv2(DQ(w2)) -> y: what a Q/DQ export writes.
std::unique_ptr<Model> qdqChain() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    b.initializer("s", {}, {0.02f});
    b.initializer("z", DataType::Int8, {}, {0});
    b.initializer("ws", {}, {0.01f});
    for (const char* name : {"conv1", "conv2"}) {
        b.initializer(std::string(name) + ".wq", DataType::Int8, {16, 16, 3, 3}, std::vector<double>(16 * 16 * 9, 3));
        b.node("DequantizeLinear", {std::string(name) + ".wq", "ws", "z"}, {std::string(name) + ".w"},
               std::string(name) + "_wdq");
    }
    b.node("QuantizeLinear", {"x", "s", "z"}, {"xq"}, "q1");
    b.node("DequantizeLinear", {"xq", "s", "z"}, {"xd"}, "dq1");
    b.node("Conv", {"xd", "conv1.w"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("QuantizeLinear", {"r1", "s", "z"}, {"rq"}, "q2");
    b.node("DequantizeLinear", {"rq", "s", "z"}, {"rd"}, "dq2");
    b.node("Conv", {"rd", "conv2.w"}, {"y"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, AbsorbsQdqPairsIntoTheirLayers) {
    const auto model = qdqChain();
    const Graph& graph = model->graph();
    auto written = writtenPlan(*model);
    ASSERT_TRUE(written) << written.status().message();
    const PrecisionPlan plan = effectivePlan(graph, *written, TrtVersion::Trt10, Precision::Fp16, nullptr);
    const EnginePrediction p = predictEngine(graph, plan, kTrt10);
    // The input's Q runs as a reformat (FP32 -> INT8), then two INT8 convolutions; no layer of Q/DQ nodes.
    ASSERT_EQ(p.layers.size(), 3u);
    EXPECT_EQ(p.reformatCount(), 1u);
    EXPECT_EQ(p.layers[0].outputs[0].precision, EnginePrecision::Int8);
    EXPECT_EQ(p.layers[0].outputs[0].layout, EngineLayout::Chw32);
    EXPECT_EQ(names(graph, p.layers[1]), (std::vector<std::string>{"conv1", "relu1"}));
    EXPECT_EQ(p.layers[1].precision, EnginePrecision::Int8);
    EXPECT_EQ(p.layers[1].outputs[0].precision, EnginePrecision::Int8);  // the Q fused into its output
    EXPECT_EQ(p.layers[2].precision, EnginePrecision::Int8);
    // The graph output is FP32: the DQ fused into the last convolution, which writes FP32 linear.
    EXPECT_EQ(p.layers[2].outputs[0].precision, EnginePrecision::Fp32);
    EXPECT_EQ(p.layers[2].outputs[0].layout, EngineLayout::Linear);
    // Weights are read as INT8: 16x16x9 bytes each.
    EXPECT_GE(p.layers[1].bytes, 16 * 16 * 9);
}

// conv1 -> relu -> conv2 -> relu -> conv3 -> relu, all planned INT8 except what the test plans FP16.
// A QAT ResNet block as pytorch-quantization exports it with the residual left unquantized:
// x -> Q/DQ -> conv1 -> relu1 -> Q/DQ -> conv2 -> add(+x, no Q/DQ) -> relu2 -> Q/DQ -> conv3 -> y.
std::unique_ptr<Model> qatBlockWithFloatResidual() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 32, 8, 8});
    b.initializer("s", {}, {0.02f});
    b.initializer("z", DataType::Int8, {}, {0});
    b.initializer("ws", {}, {0.01f});
    const auto quantizedConv = [&](const std::string& name, const std::string& in, const std::string& out) {
        b.initializer(name + ".wq", DataType::Int8, {32, 32, 3, 3}, std::vector<double>(32 * 32 * 9, 3));
        b.node("DequantizeLinear", {name + ".wq", "ws", "z"}, {name + ".w"}, name + "_wdq");
        b.node("QuantizeLinear", {in, "s", "z"}, {name + ".q"}, name + "_q");
        b.node("DequantizeLinear", {name + ".q", "s", "z"}, {name + ".dq"}, name + "_dq");
        b.node("Conv", {name + ".dq", name + ".w"}, {out}, name).ints("pads", {1, 1, 1, 1});
    };
    quantizedConv("conv1", "x", "c1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    quantizedConv("conv2", "r1", "c2");
    b.node("Add", {"c2", "x"}, {"a"}, "add");
    b.node("Relu", {"a"}, {"r2"}, "relu2");
    quantizedConv("conv3", "r2", "y");
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, UnquantizedResidualKeepsTheFusedAddInFloat) {
    const auto model = qatBlockWithFloatResidual();
    const Graph& graph = model->graph();
    auto written = writtenPlan(*model);
    ASSERT_TRUE(written) << written.status().message();
    const PrecisionPlan plan = effectivePlan(graph, *written, TrtVersion::Trt86, Precision::Fp16, nullptr);
    const EnginePrediction p = predictEngine(graph, plan, kTrt86);
    // TREx's QAT ResNet-18 on the A100: the INT8 convolution with the Add fused reads the identity in FP16 (in its
    // 32-wide layout) and writes FP16; the next convolution's Q is a reformat of its own.
    const PredictedLayer* block = layerWith(graph, p, "add");
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(names(graph, *block), (std::vector<std::string>{"conv2", "add", "relu2"}));
    EXPECT_EQ(block->precision, EnginePrecision::Int8);
    ASSERT_EQ(block->inputs.size(), 2u);
    EXPECT_EQ(block->inputs[0].precision, EnginePrecision::Int8);
    EXPECT_EQ(block->inputs[1].precision, EnginePrecision::Fp16);
    EXPECT_EQ(block->inputs[1].layout, EngineLayout::Chw32);
    EXPECT_EQ(block->outputs[0].precision, EnginePrecision::Fp16);
    const PredictedLayer* conv3 = layerWith(graph, p, "conv3");
    ASSERT_NE(conv3, nullptr);
    const auto before = std::find_if(p.layers.begin(), p.layers.end(), [&](const PredictedLayer& l) {
        return l.kind == PredictedKind::Reformat && l.feeds && &p.layers[*l.feeds] == conv3;
    });
    ASSERT_NE(before, p.layers.end());
    EXPECT_EQ(before->inputs[0].precision, EnginePrecision::Fp16);
    EXPECT_EQ(before->outputs[0].precision, EnginePrecision::Int8);
}

// x(3 channels) -> Q/DQ -> stem conv -> relu -> maxpool -> Q/DQ -> conv2 -> y, and with `floatReader` the pooled
// tensor also feeds an unquantized Add (a QAT ResNet's first residual).
std::unique_ptr<Model> qatStem(bool floatReader) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 16, 16});
    b.initializer("s", {}, {0.02f});
    b.initializer("z", DataType::Int8, {}, {0});
    b.initializer("ws", {}, {0.01f});
    const auto quantizedConv = [&](const std::string& name, int64_t cin, const std::string& in,
                                   const std::string& out) {
        b.initializer(name + ".wq", DataType::Int8, {32, cin, 3, 3}, std::vector<double>(32 * cin * 9, 3));
        b.node("DequantizeLinear", {name + ".wq", "ws", "z"}, {name + ".w"}, name + "_wdq");
        b.node("QuantizeLinear", {in, "s", "z"}, {name + ".q"}, name + "_q");
        b.node("DequantizeLinear", {name + ".q", "s", "z"}, {name + ".dq"}, name + "_dq");
        b.node("Conv", {name + ".dq", name + ".w"}, {out}, name).ints("pads", {1, 1, 1, 1});
    };
    quantizedConv("stem", 3, "x", "c1");
    b.node("Relu", {"c1"}, {"r1"}, "relu");
    b.node("MaxPool", {"r1"}, {"p"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    quantizedConv("conv2", 32, "p", "c2");
    if (floatReader) {
        b.node("Add", {"c2", "p"}, {"y"}, "add");
    } else {
        b.node("Identity", {"c2"}, {"y"}, "out");
    }
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, MaxPoolReadThroughQuantizeLinearRunsInt8) {
    const auto model = qatStem(false);
    const Graph& graph = model->graph();
    auto written = writtenPlan(*model);
    ASSERT_TRUE(written) << written.status().message();
    const PrecisionPlan plan = effectivePlan(graph, *written, TrtVersion::Trt86, Precision::Fp16, nullptr);
    const EnginePrediction p = predictEngine(graph, plan, kTrt86);
    const PredictedLayer* pool = layerWith(graph, p, "pool");
    const PredictedLayer* stem = layerWith(graph, p, "stem");
    ASSERT_NE(pool, nullptr);
    ASSERT_NE(stem, nullptr);
    EXPECT_EQ(pool->precision, EnginePrecision::Int8);  // the Q moved above it
    EXPECT_EQ(stem->outputs[0].precision, EnginePrecision::Int8);
    // Three channels: it reads 4-wide INT8 vectors, and with an INT8 output it runs on the tensor cores.
    EXPECT_EQ(stem->inputs[0].layout, EngineLayout::Chw4);
}

// x -> Conv "stem" -> (with `residual`: Add(., x) "add") -> Relu "relu" -> MaxPool "pool" -> Conv "conv2" -> y.
std::unique_ptr<Model> convReluPool(bool residual) {
    const int64_t channels = residual ? 32 : 3;
    ModelBuilder b;
    b.input("x", DataType::Float, {1, channels, 16, 16});
    conv(b, "stem", "x", "c", channels, 32);
    if (residual) b.node("Add", {"c", "x"}, {"s"}, "add");
    b.node("Relu", {residual ? "s" : "c"}, {"r"}, "relu");
    b.node("MaxPool", {"r"}, {"p"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    conv(b, "conv2", "p", "y", 32, 32);
    b.output("y");
    return b.load();
}

// TensorRT 8.5/8.6 fuse an INT8 stem convolution, its Relu and the INT8 MaxPool after it into one layer
// (ConvActPool in the 8.5 QAT and 8.6 PTQ ResNet reports of the data); read in float too, the pool stays apart.
TEST(EnginePredictionTest, Trt86FusesAnInt8ConvolutionReluAndMaxPool) {
    const auto quantized = qatStem(false), floatPool = qatStem(true);
    for (const TrtTarget& target : {kTrt86, TrtTarget{TrtVersion::Trt10, TrtTyping::Weak}}) {
        for (const Model* model : {quantized.get(), floatPool.get()}) {
            const Graph& graph = model->graph();
            auto written = writtenPlan(*model);
            ASSERT_TRUE(written) << written.status().message();
            const PrecisionPlan plan = effectivePlan(graph, *written, target.version, Precision::Fp16, nullptr);
            const EnginePrediction p = predictEngine(graph, plan, target);
            const bool fused = target.version == TrtVersion::Trt86 && model == quantized.get();
            EXPECT_EQ(layerWith(graph, p, "stem") == layerWith(graph, p, "pool"), fused)
                << trtVersionName(target.version) << (model == quantized.get() ? " quantized" : " float reader");
            if (fused) {
                EXPECT_EQ(names(graph, *layerWith(graph, p, "pool")),
                          (std::vector<std::string>{"stem", "relu", "pool"}));
                EXPECT_EQ(layerWith(graph, p, "pool")->outputs.at(0).precision, EnginePrecision::Int8);
            }
        }
    }
    // Implicit INT8 (a calibrated plan, no Q/DQ): the same fusion when the plan runs both INT8.
    const auto model = convReluPool(false);
    const Graph& graph = model->graph();
    PrecisionPlan plan(graph, Precision::Int8);
    const EnginePrediction p = predictEngine(graph, plan, kTrt86);
    EXPECT_EQ(layerWith(graph, p, "stem"), layerWith(graph, p, "pool"));
    plan.setRequested(*graph.findNode("pool"), Precision::Fp16);
    const EnginePrediction apart = predictEngine(graph, plan, kTrt86);
    EXPECT_NE(layerWith(graph, apart, "stem"), layerWith(graph, apart, "pool"));
}

// A layer with a residual Add keeps the pooling apart: no report of the data shows that fusion.
TEST(EnginePredictionTest, Trt86KeepsTheMaxPoolApartFromALayerWithAResidualAdd) {
    const auto model = convReluPool(true);
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Int8), kTrt86);
    EXPECT_EQ(layerWith(graph, p, "stem"), layerWith(graph, p, "add"));
    EXPECT_NE(layerWith(graph, p, "stem"), layerWith(graph, p, "pool"));
}

TEST(EnginePredictionTest, Int8StemWritingFloatRunsCudnnInt8x4) {
    const auto quantized = qatStem(false), floatPool = qatStem(true);
    const GpuProfile a100 = defaultGpuProfile(*findGpu("a100-40gb"));
    double stemMs[2] = {0, 0};
    int i = 0;
    for (const Model* model : {quantized.get(), floatPool.get()}) {
        const Graph& graph = model->graph();
        auto written = writtenPlan(*model);
        ASSERT_TRUE(written) << written.status().message();
        const PrecisionPlan plan = effectivePlan(graph, *written, TrtVersion::Trt86, Precision::Fp16, nullptr);
        const EnginePrediction p = predictEngine(graph, plan, kTrt86);
        const PredictedLayer* stem = layerWith(graph, p, "stem");
        ASSERT_NE(stem, nullptr);
        if (model == floatPool.get()) {
            // The pooled tensor is read in float too: the stem writes float, and int8x4 kernels write FP32 linear.
            EXPECT_EQ(layerWith(graph, p, "pool")->precision, EnginePrecision::Fp16);
            EXPECT_EQ(stem->outputs[0].precision, EnginePrecision::Fp32);
            EXPECT_EQ(stem->outputs[0].layout, EngineLayout::Linear);
        }
        stemMs[i++] = layerTime(*stem, a100).computeMs;
    }
    // CUDA cores at 4x the FP32 rate against INT8 tensor cores: several times slower.
    EXPECT_GT(stemMs[1], 3 * stemMs[0]);
}

std::unique_ptr<Model> threeConvs() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 32, 8, 8});
    conv(b, "conv1", "x", "c1", 32, 32);
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    conv(b, "conv2", "r1", "c2", 32, 32);
    b.node("HardSwish", {"c2"}, {"r2"}, "hswish2");
    conv(b, "conv3", "r2", "c3", 32, 32);
    b.node("Relu", {"c3"}, {"y"}, "relu3");
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, Fp16IslandBetweenInt8ConvsAddsReformats) {
    const auto model = threeConvs();
    const Graph& graph = model->graph();
    PrecisionPlan all(graph, Precision::Int8);
    const EnginePrediction int8 = predictEngine(graph, all, kTrt10);
    // Input quantize, three fused INT8 convolutions writing INT8 to each other, the last one FP32 out.
    EXPECT_EQ(int8.layers.size(), 4u);
    EXPECT_EQ(int8.reformatCount(), 1u);

    PrecisionPlan island = all;
    island.setRequested(*graph.findNode("conv2"), Precision::Fp16);
    island.setRequested(*graph.findNode("hswish2"), Precision::Fp16);
    const EnginePrediction p = predictEngine(graph, island, kTrt10);
    // conv2 computes FP16: INT8 -> FP16 HWC8 before it, FP16 -> INT8 32-wide after it.
    EXPECT_EQ(p.reformatCount(), 3u);
    const PredictedLayer* conv2 = layerWith(graph, p, "conv2");
    ASSERT_NE(conv2, nullptr);
    EXPECT_EQ(conv2->precision, EnginePrecision::Fp16);
    EXPECT_EQ(conv2->inputs[0].layout, EngineLayout::Hwc8);
    size_t intoConv3 = 0;
    for (const PredictedLayer& layer : p.layers)
        if (layer.kind == PredictedKind::Reformat && layer.feeds && p.layers[*layer.feeds].name.starts_with("conv3"))
            ++intoConv3;
    EXPECT_EQ(intoConv3, 1u);

    // Under strong typing an FP16 activation after an INT8 conv is a layer of its own (no fusion across types).
    PrecisionPlan act = all;
    act.setRequested(*graph.findNode("hswish2"), Precision::Fp16);
    const EnginePrediction split = predictEngine(graph, act, kTrt10);
    EXPECT_EQ(split.layers.size(), int8.layers.size() + 1);
    EXPECT_EQ(layerWith(graph, split, "hswish2")->kind, PredictedKind::Pointwise);
}

TEST(EnginePredictionTest, DepthwiseConvIsItsOwnCostClass) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 32, 16, 16});
    conv(b, "dw", "x", "d", 32, 32, 32);
    b.node("Clip", {"d"}, {"y"}, "relu6");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Int8), kTrt10);
    const PredictedLayer* dw = layerWith(graph, p, "dw");
    ASSERT_NE(dw, nullptr);
    EXPECT_EQ(dw->costClass, CostClass::Depthwise);
    EXPECT_EQ(names(graph, *dw), (std::vector<std::string>{"dw", "relu6"}));
    EXPECT_EQ(dw->macs, 32 * 9 * 16 * 16);  // no channel padding: one channel per group
}

TEST(EnginePredictionTest, SiluFusesIntoItsConvolution) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 8, 8});
    conv(b, "conv", "x", "c", 16, 16);
    b.node("Sigmoid", {"c"}, {"s"}, "sigmoid");
    b.node("Mul", {"c", "s"}, {"y"}, "mul");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp16), kTrt10);
    const PredictedLayer* layer = layerWith(graph, p, "conv");
    ASSERT_NE(layer, nullptr);
    EXPECT_EQ(names(graph, *layer), (std::vector<std::string>{"conv", "sigmoid", "mul"}));
}

// Self-attention over x [1, 64, 32]: Q, K, V projections, scores, scale, Softmax, context, output projection.
std::unique_ptr<Model> attention() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 32});
    for (const char* w : {"wq", "wk", "wv", "wo"}) b.initializer(w, {32, 32}, seededFloats(32 * 32));
    b.initializer("inv_sqrt_d", {}, {0.125f});
    b.node("MatMul", {"x", "wq"}, {"q"}, "q_proj");
    b.node("MatMul", {"x", "wk"}, {"k"}, "k_proj");
    b.node("MatMul", {"x", "wv"}, {"v"}, "v_proj");
    b.node("Transpose", {"k"}, {"kt"}, "k_t").ints("perm", {0, 2, 1});
    b.node("MatMul", {"q", "kt"}, {"scores"}, "bmm1");
    b.node("Mul", {"scores", "inv_sqrt_d"}, {"scaled"}, "scale");
    b.node("Softmax", {"scaled"}, {"probs"}, "softmax").i("axis", -1);
    b.node("MatMul", {"probs", "v"}, {"ctx"}, "bmm2");
    b.node("MatMul", {"ctx", "wo"}, {"y"}, "o_proj");
    b.output("y");
    return b.load();
}

TEST(EnginePredictionTest, AttentionIsOneKernelOfAMyelinRegion) {
    const auto model = attention();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp16), kTrt10);
    ASSERT_EQ(countKind(p, PredictedKind::Attention), 1u);
    const PredictedLayer* mha = layerWith(graph, p, "softmax");
    ASSERT_NE(mha, nullptr);
    EXPECT_EQ(mha->kind, PredictedKind::Attention);
    EXPECT_EQ(names(graph, *mha), (std::vector<std::string>{"bmm1", "scale", "softmax", "bmm2"}));
    EXPECT_EQ(countKind(p, PredictedKind::Gemm), 4u);  // the projections
    // Myelin tensors are linear: only the input's FP32 -> FP16 reformat (the last GEMM writes the FP32 output).
    EXPECT_EQ(p.reformatCount(), 1u);
    for (const PredictedLayer& layer : p.layers) {
        if (layer.kind != PredictedKind::Reformat) {
            EXPECT_EQ(layer.inputs[0].layout, EngineLayout::Linear);
        }
    }
}

TEST(EnginePredictionTest, Trt86RunsFullyConnectedLayersAsConvolutionsWithAReshape) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 64, 1, 1});
    b.initializer("w", {10, 64}, seededFloats(640));
    b.initializer("bias", {10}, seededFloats(10));
    b.node("Flatten", {"x"}, {"f"}, "flatten");
    b.node("Gemm", {"f", "w", "bias"}, {"g"}, "fc").i("transB", 1);
    b.node("Softmax", {"g"}, {"y"}, "softmax").i("axis", 1);
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    const EnginePrediction old = predictEngine(graph, PrecisionPlan(graph, Precision::Fp32), kTrt86);
    ASSERT_EQ(old.layers.size(), 3u);  // fc, reshape_after_fc, softmax
    EXPECT_EQ(old.layers[1].name, "reshape_after_fc");
    EXPECT_EQ(old.layers[2].kind, PredictedKind::Softmax);
    // TensorRT 10: one Myelin region, its GEMM, and the Softmax's two kgen kernels.
    const EnginePrediction myelin = predictEngine(graph, PrecisionPlan(graph, Precision::Fp32), kTrt10);
    EXPECT_EQ(countKind(myelin, PredictedKind::Gemm), 1u);
    EXPECT_EQ(countKind(myelin, PredictedKind::Kgen), 2u);
    EXPECT_EQ(myelin.reformatCount(), 0u);
}

TEST(EnginePredictionTest, NodesComputedFromConstantsMakeNoLayer) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.initializer("a", {8}, seededFloats(8));
    b.node("Relu", {"a"}, {"ra"}, "const_relu");
    b.node("Add", {"x", "ra"}, {"y"}, "add");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    const EnginePrediction p = predictEngine(graph, PrecisionPlan(graph, Precision::Fp32), kTrt86);
    ASSERT_EQ(p.layers.size(), 1u);
    EXPECT_EQ(names(graph, p.layers[0]), (std::vector<std::string>{"add"}));
}

TEST(EnginePredictionTest, APlanOfAnotherGraphPredictsNothing) {
    const auto model = residualBlock();
    const EnginePrediction p = predictEngine(model->graph(), PrecisionPlan(), kTrt10);
    EXPECT_TRUE(p.layers.empty());
}

// If/Loop/Scan bodies are predicted like the main graph, each with its plan (unplanned: float, as the target runs
// it), and the latency counts what runs: an If's slower branch, a Loop's body times its constant trip count. Before,
// `predict` left them out, and Silero VAD, whose work is all inside an If, was predicted at two empty layers.
TEST(EnginePredictionTest, PredictsControlFlowBodiesAndCountsWhatRuns) {
    auto model = test::convBranchesModel();
    const Graph& graph = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    const Node& route = graph.node(*graph.findNode("route"));
    auto thenBranch = buildSubgraphModel(graph, route, "then_branch");
    ASSERT_TRUE(thenBranch);
    plan.ensureBody("route", "then_branch", thenBranch->graph) = defaultPrecisionPlan(thenBranch->graph);
    const EnginePrediction p = predictEngine(graph, plan, kTrt10);
    EXPECT_TRUE(p.unpredictedBodies.empty());
    ASSERT_EQ(p.bodies.size(), 3u);
    const auto where = [&](size_t i) { return p.bodies[i].node + "/" + p.bodies[i].attribute; };
    EXPECT_EQ(where(0), "route/then_branch");
    EXPECT_EQ(where(1), "route/else_branch");
    EXPECT_EQ(where(2), "refine/body");
    EXPECT_EQ(p.bodies[2].trips, std::optional<int64_t>(2));
    EXPECT_FALSE(p.bodies[0].trips);
    for (const PredictedBody& body : p.bodies) {
        ASSERT_FALSE(body.engine->layers.empty()) << body.node << "/" << body.attribute;
        for (const PredictedLayer& layer : body.engine->layers) {
            if (layer.kind == PredictedKind::Reformat) continue;
            // The planned branch runs its convolutions INT8; the unplanned bodies run float32, strongly typed.
            const bool planned = &body == &p.bodies[0] && layer.kind == PredictedKind::Convolution;
            EXPECT_EQ(layer.precision, planned ? EnginePrecision::Int8 : EnginePrecision::Fp32)
                << body.node << "/" << body.attribute << ": " << layer.name;
        }
    }

    const LatencyEstimate estimate = estimateLatency(p, defaultGpuProfile(*findGpu("a100-40gb")));
    ASSERT_EQ(estimate.bodies.size(), 3u);
    const double thenMs = estimate.bodies[0].estimate->totalMs, elseMs = estimate.bodies[1].estimate->totalMs,
                 loopMs = estimate.bodies[2].estimate->totalMs;
    EXPECT_GT(thenMs, 0.0);
    EXPECT_NE(thenMs, elseMs);
    EXPECT_DOUBLE_EQ(estimate.bodiesMs, std::max(thenMs, elseMs) + 2 * loopMs);
    double layersMs = 0.0;
    for (const LayerTime& layer : estimate.layers) layersMs += layer.ms;
    EXPECT_DOUBLE_EQ(estimate.totalMs, layersMs + estimate.bodiesMs);
    EXPECT_EQ(estimate.bodies[0].countedMs > 0.0, thenMs > elseMs);  // one branch counts, the other not
    EXPECT_EQ(estimate.bodies[1].countedMs > 0.0, elseMs > thenMs);

    auto plain = residualBlock();  // a model without control flow has no bodies
    EXPECT_TRUE(predictEngine(plain->graph(), defaultPrecisionPlan(plain->graph()), kTrt10).bodies.empty());
}

}  // namespace
}  // namespace ql
