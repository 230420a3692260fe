#include "core/export/qdq_export.h"

#include <gtest/gtest.h>

#include <onnx/checker.h>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
#include "core/lint/linter.h"
#include "core/model/tensor_data.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

// Exports with every node at `precision` unless listed in `overrides`; checks the result passes the ONNX
// checker and runs in the executor.
QdqExport exportModel(const Model& model, const QdqOptions& options = {},
                      const std::map<std::string, Precision>& overrides = {},
                      const std::map<std::string, float>& amax = {}) {
    PrecisionPlan plan(model.graph(), Precision::Int8);
    for (const auto& [name, precision] : overrides) plan.setRequested(*model.graph().findNode(name), precision);
    auto result = exportQdq(model, plan, test::uniformCalibration(model.graph(), amax), options);
    EXPECT_TRUE(result) << result.status().message();
    if (!result) return {};
    EXPECT_NO_THROW(onnx::checker::check_model(result->proto));
    const std::string bytes = result->proto.SerializeAsString();
    auto loaded = Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), "exported");
    EXPECT_TRUE(loaded) << loaded.status().message();
    if (!loaded) return std::move(result).value();
    auto exec = Executor::create((*loaded)->graph());
    EXPECT_TRUE(exec) << exec.status().message();
    auto inputs = randomInputs((*loaded)->graph());
    EXPECT_TRUE(inputs);
    if (exec && inputs) {
        auto out = (*exec)->run(*inputs);
        EXPECT_TRUE(out) << out.status().message();
    }
    return std::move(result).value();
}

const onnx::NodeProto* nodeNamed(const onnx::ModelProto& model, const std::string& name) {
    for (const auto& node : model.graph().node())
        if (node.name() == name) return &node;
    return nullptr;
}

const onnx::NodeProto* producerOf(const onnx::ModelProto& model, const std::string& tensor) {
    for (const auto& node : model.graph().node())
        for (const auto& output : node.output())
            if (output == tensor) return &node;
    return nullptr;
}

const onnx::TensorProto* initializerNamed(const onnx::ModelProto& model, const std::string& name) {
    for (const auto& init : model.graph().initializer())
        if (init.name() == name) return &init;
    return nullptr;
}

int64_t axisOf(const onnx::NodeProto& node) {
    for (const auto& attr : node.attribute())
        if (attr.name() == "axis") return attr.i();
    ADD_FAILURE() << node.name() << " has no axis";
    return -100;
}

// What feeds input `input` of node `layer`: the DequantizeLinear, its scales and its source.
struct Dq {
    const onnx::NodeProto* dq = nullptr;
    std::vector<float> scales;
    int64_t axis = 0;
    const onnx::NodeProto* q = nullptr;             // null when the source is an int8 initializer
    const onnx::TensorProto* int8Weight = nullptr;  // the quantized initializer, if any
    std::string source;                             // the float tensor quantized
};

std::optional<Dq> dqFeeding(const onnx::ModelProto& model, const std::string& layer, int input) {
    const auto* node = nodeNamed(model, layer);
    if (!node || node->input_size() <= input) return std::nullopt;
    const auto* dq = producerOf(model, node->input(input));
    if (!dq || dq->op_type() != "DequantizeLinear") return std::nullopt;
    Dq result;
    result.dq = dq;
    result.scales = *tensorAsFloats(*initializerNamed(model, dq->input(1)));
    result.axis = axisOf(*dq);
    const auto* zero = initializerNamed(model, dq->input(2));
    EXPECT_TRUE(zero && zero->data_type() == onnx::TensorProto::INT8);
    EXPECT_EQ(*tensorAsInt64s(*zero), std::vector<int64_t>(result.scales.size(), 0));
    result.q = producerOf(model, dq->input(0));
    if (result.q) {
        EXPECT_EQ(result.q->op_type(), "QuantizeLinear");
        result.source = result.q->input(0);
    } else {
        result.int8Weight = initializerNamed(model, dq->input(0));
        EXPECT_TRUE(result.int8Weight && result.int8Weight->data_type() == onnx::TensorProto::INT8);
    }
    return result;
}

int countOp(const onnx::ModelProto& model, const std::string& op) {
    int n = 0;
    for (const auto& node : model.graph().node()) n += node.op_type() == op ? 1 : 0;
    return n;
}

std::unique_ptr<Model> convModel(int64_t opset = 13) {
    ModelBuilder b(opset);
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108));
    b.initializer("bias", {4}, seededFloats(4, 5));
    b.node("Conv", {"x", "w", "bias"}, {"y"}, "conv");
    b.output("y");
    return b.load();
}

TEST(QdqExportTest, ConvGetsActivationQdqAndPerChannelInt8WeightOnAxis0) {
    auto model = convModel();
    auto result = exportModel(*model, {}, {}, {{"x", 2.54f}});
    auto act = dqFeeding(result.proto, "conv", 0);
    ASSERT_TRUE(act);
    EXPECT_EQ(act->source, "x");
    EXPECT_EQ(act->scales, std::vector<float>{2.54f / 127.0f});
    auto w = dqFeeding(result.proto, "conv", 1);
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->int8Weight);
    EXPECT_EQ(w->axis, 0);
    EXPECT_EQ(w->scales.size(), 4u);
    EXPECT_FALSE(dqFeeding(result.proto, "conv", 2)) << "bias stays float";
    EXPECT_EQ(nodeNamed(result.proto, "conv")->input(2), "bias");
    // The int8 levels reproduce the weight within half a step.
    const auto weights = seededFloats(108);
    const auto levels = *tensorAsInt64s(*w->int8Weight);
    for (size_t i = 0; i < weights.size(); ++i)
        EXPECT_NEAR(static_cast<float>(levels[i]) * w->scales[i / 27], weights[i], w->scales[i / 27] * 0.5f + 1e-7f);
}

TEST(QdqExportTest, FloatWeightOptionWritesQuantizeDequantizePairOverTheWeight) {
    QdqOptions options;
    options.int8Weights = false;
    auto result = exportModel(*convModel(), options);
    auto w = dqFeeding(result.proto, "conv", 1);
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->q);
    EXPECT_EQ(w->source, "w");
    EXPECT_EQ(axisOf(*w->q), 0);
}

TEST(QdqExportTest, Opset11IsRaisedTo13) {
    auto result = exportModel(*convModel(11));
    int64_t opset = 0;
    for (const auto& import : result.proto.opset_import())
        if (import.domain().empty() || import.domain() == "ai.onnx") opset = import.version();
    EXPECT_EQ(opset, 13);
    EXPECT_TRUE(dqFeeding(result.proto, "conv", 1));
}

std::unique_ptr<Model> convTransposeModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 3, 3});
    b.initializer("w", {4, 3, 2, 2}, seededFloats(48, 3));  // C_in 4, C_out/group 3, group 2
    b.node("ConvTranspose", {"x", "w"}, {"y"}, "deconv").i("group", 2);
    b.output("y");
    return b.load();
}

TEST(QdqExportTest, ConvTransposeWeightIsPerTensorByDefault) {
    auto result = exportModel(*convTransposeModel());
    auto w = dqFeeding(result.proto, "deconv", 1);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->scales.size(), 1u);
    EXPECT_TRUE(dqFeeding(result.proto, "deconv", 0));
}

TEST(QdqExportTest, ConvTransposePerChannelUsesTheTargetVersionsAxis) {
    for (auto [major, axis, channels] : {std::tuple{8, 0, 4u}, std::tuple{10, 1, 3u}}) {
        SCOPED_TRACE("TensorRT " + std::to_string(major));
        QdqOptions options;
        options.perChannelConvTranspose = true;
        options.tensorRtMajor = major;
        auto result = exportModel(*convTransposeModel(), options);
        auto w = dqFeeding(result.proto, "deconv", 1);
        ASSERT_TRUE(w);
        EXPECT_EQ(w->axis, axis);
        EXPECT_EQ(w->scales.size(), channels);
    }
}

TEST(QdqExportTest, GemmWeightAxisFollowsTransB) {
    for (int64_t transB : {0, 1}) {
        SCOPED_TRACE("transB=" + std::to_string(transB));
        ModelBuilder b;
        b.input("x", DataType::Float, {2, 6});
        b.initializer("w", transB ? std::vector<int64_t>{5, 6} : std::vector<int64_t>{6, 5}, seededFloats(30));
        b.node("Gemm", {"x", "w"}, {"y"}, "fc").i("transB", transB);
        b.output("y");
        auto result = exportModel(*b.load());
        auto w = dqFeeding(result.proto, "fc", 1);
        ASSERT_TRUE(w);
        EXPECT_EQ(w->axis, transB ? 0 : 1);
        EXPECT_EQ(w->scales.size(), 5u);
    }
}

TEST(QdqExportTest, MatMulWeightIsPerChannelOnAxis1) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 6});
    b.initializer("w", {6, 7}, seededFloats(42));
    b.node("MatMul", {"x", "w"}, {"y"}, "mm");
    b.output("y");
    auto result = exportModel(*b.load());
    auto w = dqFeeding(result.proto, "mm", 1);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->axis, 1);
    EXPECT_EQ(w->scales.size(), 7u);
    EXPECT_TRUE(dqFeeding(result.proto, "mm", 0));
}

TEST(QdqExportTest, WeightInAConstantNodeIsQuantizedLikeAnInitializer) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 6});
    b.node("Constant", {}, {"w"}, "w_const")
        .tensor("value", test::makeTensor("w", DataType::Float, {6, 3}, std::vector<double>(18, 0.5)));
    b.node("MatMul", {"x", "w"}, {"y"}, "mm");
    b.output("y");
    auto result = exportModel(*b.load());
    auto w = dqFeeding(result.proto, "mm", 1);
    ASSERT_TRUE(w);
    EXPECT_TRUE(w->int8Weight);
    EXPECT_EQ(w->scales, std::vector<float>(3, 0.5f / 127.0f));
}

TEST(QdqExportTest, ResidualAddQuantizesTheSkipInputOnly) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 5, 5});
    b.node("Relu", {"x"}, {"skip"}, "relu0");
    b.initializer("w", {4, 4, 3, 3}, seededFloats(144));
    b.node("Conv", {"skip", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Add", {"c", "skip"}, {"y"}, "add");
    b.output("y");
    auto result = exportModel(*b.load(), {}, {}, {{"skip", 3.0f}});
    EXPECT_FALSE(dqFeeding(result.proto, "add", 0)) << "conv->Add edge stays float";
    auto skip = dqFeeding(result.proto, "add", 1);
    ASSERT_TRUE(skip);
    EXPECT_EQ(skip->source, "skip");
    EXPECT_EQ(skip->scales, std::vector<float>{3.0f / 127.0f});
    // One Q/DQ pair serves both the conv input and the skip input.
    EXPECT_EQ(countOp(result.proto, "QuantizeLinear"), 1);
}

TEST(QdqExportTest, ConcatInputsShareTheLargestScale) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4, 4});
    b.node("Relu", {"x"}, {"a"}, "relu_a");
    b.node("Sigmoid", {"x"}, {"s"}, "sig_b");
    b.node("Concat", {"a", "s"}, {"cat"}, "concat").i("axis", 1);
    b.initializer("w", {3, 4, 1, 1}, seededFloats(12));
    b.node("Conv", {"cat", "w"}, {"y"}, "conv");
    b.output("y");
    auto result = exportModel(*b.load(), {}, {}, {{"a", 4.0f}, {"s", 1.0f}, {"cat", 3.0f}});
    const std::vector<float> shared{4.0f / 127.0f};
    for (int input : {0, 1}) {
        auto in = dqFeeding(result.proto, "concat", input);
        ASSERT_TRUE(in) << input;
        EXPECT_EQ(in->scales, shared);
    }
    auto out = dqFeeding(result.proto, "conv", 0);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->scales, shared);
}

TEST(QdqExportTest, Int8PoolingInputIsQuantizedSoItRunsInt8) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("MaxPool", {"c"}, {"m"}, "maxpool").ints("kernel_shape", {2, 2});
    b.node("GlobalAveragePool", {"m"}, {"y"}, "gap");
    b.output("y");
    auto result = exportModel(*b.load(), {}, {}, {{"c", 3.0f}, {"m", 1.5f}});
    auto maxPool = dqFeeding(result.proto, "maxpool", 0);
    ASSERT_TRUE(maxPool);
    EXPECT_EQ(maxPool->scales, std::vector<float>{3.0f / 127.0f});
    // The MaxPool's output shares its input's scale (the larger amax), so TensorRT does not requantize between them.
    auto gap = dqFeeding(result.proto, "gap", 0);
    ASSERT_TRUE(gap);
    EXPECT_EQ(gap->scales, std::vector<float>{3.0f / 127.0f});
}

TEST(QdqExportTest, Fp16IslandGetsNoQdq) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 6});
    b.initializer("w1", {6, 6}, seededFloats(36, 1));
    b.initializer("w2", {6, 6}, seededFloats(36, 2));
    b.node("MatMul", {"x", "w1"}, {"h"}, "mm1");
    b.node("MatMul", {"h", "w2"}, {"y"}, "mm2");
    b.output("y");
    auto result = exportModel(*b.load(), {}, {{"mm2", Precision::Fp16}});
    EXPECT_TRUE(dqFeeding(result.proto, "mm1", 0));
    EXPECT_FALSE(dqFeeding(result.proto, "mm2", 0));
    EXPECT_FALSE(dqFeeding(result.proto, "mm2", 1));
    EXPECT_EQ(countOp(result.proto, "DequantizeLinear"), 2);
}

TEST(QdqExportTest, LayerWithoutCalibratedInputFallsBackWithAReason) {
    auto model = convModel();
    PrecisionPlan plan(model->graph(), Precision::Int8);
    auto result = exportQdq(*model, plan, CalibrationResult{});
    ASSERT_TRUE(result) << result.status().message();
    EXPECT_EQ(countOp(result->proto, "DequantizeLinear"), 0);
    const auto& layer = result->placement.layers.at(0);
    EXPECT_EQ(layer.precision, Precision::Fp32);
    EXPECT_NE(layer.reason.find("'x'"), std::string::npos) << layer.reason;
}

TEST(QdqExportTest, Float16LayerFallsBackBecauseQuantizeLinearTakesFloat) {
    ModelBuilder b;
    b.input("x", DataType::Float16, {2, 4});
    b.initializer("w", DataType::Float16, {4, 3}, std::vector<double>(12, 0.25));
    b.node("MatMul", {"x", "w"}, {"y"}, "mm");
    b.output("y", DataType::Float16);
    auto model = b.load();
    auto result =
        exportQdq(*model, PrecisionPlan(model->graph(), Precision::Int8), test::uniformCalibration(model->graph()));
    ASSERT_TRUE(result) << result.status().message();
    EXPECT_EQ(countOp(result->proto, "DequantizeLinear"), 0);
    EXPECT_EQ(result->placement.layers.at(0).precision, Precision::Fp32);
    EXPECT_NE(result->placement.layers.at(0).reason.find("FLOAT16"), std::string::npos);
}

TEST(QdqExportTest, BatchNormIsFoldedBeforeQdqSoNoneSitsBetweenConvAndBn) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, seededFloats(108));
    for (const char* p : {"s", "b", "m", "v"}) b.initializer(p, {4}, seededFloats(4, 9, 0.5f, 1.5f));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("BatchNormalization", {"c", "s", "b", "m", "v"}, {"y"}, "bn");
    b.output("y");
    auto result = exportModel(*b.load());
    EXPECT_EQ(countOp(result.proto, "BatchNormalization"), 0);
    EXPECT_EQ(nodeNamed(result.proto, "conv")->output(0), "y");
    const auto summary = qdqSummaryJson(result);
    EXPECT_EQ(summary["preparation"][0]["action"], "fold-batchnorm");
    EXPECT_EQ(summary["qdq"].size(), 2u);
}

// The export's summary counts weighted layers as lint and the status bar do; the Sigmoid and Mul of a SiLU that run
// INT8 beside its conv count only among all layers (the window once said 14 INT8 layers beside 6 weighted ones).
TEST(QdqExportTest, LayerCountsAgreeWithLintsCoverage) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w1", {8, 3, 3, 3}, seededFloats(216));
    b.initializer("w2", {8, 8, 1, 1}, seededFloats(64, 3));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Sigmoid", {"c1"}, {"s1"}, "sigmoid");
    b.node("Mul", {"c1", "s1"}, {"silu"}, "mul");
    b.node("Conv", {"silu", "w2"}, {"c2"}, "conv2");
    b.node("Relu", {"c2"}, {"y"}, "relu");
    b.output("y", DataType::Float, {1, 8, 6, 6});
    auto model = b.load();
    const QdqExport result = exportModel(*model);
    const ExportLayerCounts counts = exportLayerCounts(result);
    const LintCoverage coverage = lint(model->graph(), PrecisionPlan(model->graph(), Precision::Int8)).coverage;
    EXPECT_EQ(counts.weighted, 2);
    EXPECT_EQ(counts.weighted, coverage.weightedLayers);
    EXPECT_EQ(counts.int8Weighted, coverage.int8Layers);
    EXPECT_GT(counts.int8All, counts.int8Weighted);
    EXPECT_EQ(counts.fp16Guarded, 0);
}

}  // namespace
}  // namespace ql
