// Undoing FP16 islands: a strongly typed export (with and without --fp16-io) and an AutoCast-style model come back
// as the float32 model they were made from, the island nodes are named, casts of the model's own logic stay, and a
// re-export gives the same islands and the same scales.
#include "core/export/fp16_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "core/common/half.h"
#include "core/export/qdq_export.h"
#include "core/export/qdq_import.h"
#include "core/model/tensor_data.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::loadProto;

using test::ModelBuilder;

const ExportTarget kTrt11{.trt = {TrtVersion::Trt11, TrtTyping::Strong}};

// conv, relu (INT8) -> soft, mul (FP16; "k" also read by the FP32 add) -> split (FP16) -> add, sig (FP32) and
// scale2 (FP16, "k2" read by no other node) -> outputs y1, y2; argmax writes an INT64 output.
std::unique_ptr<Model> mixedModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 6, 6});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.initializer("k", {1, 1, 1, 4}, {0.5f, 1.1f, -0.3f, 2.7f});
    b.initializer("k2", {1, 1, 1, 4}, {0.1f, 0.2f, 0.3f, 0.4f});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Softmax", {"r"}, {"s"}, "soft").i("axis", 1);
    b.node("Mul", {"s", "k"}, {"m"}, "mul");
    b.node("Split", {"m"}, {"m1", "m2"}, "split").i("axis", 1);
    b.node("Add", {"m1", "k"}, {"a"}, "add");
    b.node("Sigmoid", {"a"}, {"y1"}, "sig");
    b.node("Mul", {"m2", "k2"}, {"y2"}, "scale2");
    b.node("ArgMax", {"m2"}, {"idx"}, "argmax").i("axis", 1);
    b.output("y1");
    b.output("y2");
    b.output("idx", DataType::Int64);
    return b.load();
}

const std::vector<std::string> kFp16Layers = {"soft", "mul", "split", "scale2"};

PrecisionPlan mixedPlan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp32);
    for (const char* name : {"conv", "relu"}) plan.setRequested(*graph.findNode(name), Precision::Int8);
    for (const auto& name : kFp16Layers) plan.setRequested(*graph.findNode(name), Precision::Fp16);
    return plan;
}

// A different amax per activation, so every scale is told apart.
CalibrationResult calibration(const Graph& graph) {
    CalibrationResult result;
    float amax = 0.7f;
    for (const Value& value : graph.values()) {
        if (value.initializer >= 0) continue;
        TensorRange range;
        range.name = value.name;
        range.amax = amax += 0.37f;
        result.activations.push_back(range);
    }
    return result;
}

QdqExport strongExport(const Model& model, const PrecisionPlan& plan, const CalibrationResult& calib,
                       bool fp16Io = false) {
    ExportTarget target = kTrt11;
    target.fp16Io = fp16Io;
    auto result = exportQdq(model, plan, calib, {}, target);
    EXPECT_TRUE(result) << result.status().message();
    return result ? std::move(*result) : QdqExport{};
}

// Nodes other than Cast that write float16: the island nodes of a written model.
std::set<std::string> islandNodes(const Graph& graph) {
    std::set<std::string> names;
    for (const Node& node : graph.nodes())
        for (ValueId v : node.outputs)
            if (node.opType != "Cast" && v != kNoId && graph.value(v).type.dtype == DataType::Float16)
                names.insert(node.name);
    return names;
}

// "consumer#slot" -> scale bits of the DequantizeLinear it reads.
std::map<std::string, std::vector<uint32_t>> scalesByInput(const onnx::ModelProto& model) {
    std::map<std::string, const onnx::TensorProto*> inits;
    for (const auto& init : model.graph().initializer()) inits[init.name()] = &init;
    std::map<std::string, std::vector<uint32_t>> dq;
    for (const auto& node : model.graph().node()) {
        if (node.op_type() != "DequantizeLinear") continue;
        auto scales = tensorAsFloats(*inits.at(node.input(1)));
        if (!scales) continue;
        for (float s : *scales) dq[node.output(0)].push_back(std::bit_cast<uint32_t>(s));
    }
    std::map<std::string, std::vector<uint32_t>> byInput;
    for (const auto& node : model.graph().node())
        for (int i = 0; i < node.input_size(); ++i)
            if (auto it = dq.find(node.input(i)); it != dq.end())
                byInput[node.name() + "#" + std::to_string(i)] = it->second;
    return byInput;
}

std::vector<std::string> nodeNames(const Graph& graph) {
    std::vector<std::string> names;
    for (const Node& node : graph.nodes()) names.push_back(node.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::set<std::string> valueNames(const Graph& graph) {
    std::set<std::string> names;
    for (const Value& value : graph.values()) names.insert(value.name);
    return names;
}

std::vector<float> initializerValues(const Graph& graph, const std::string& name) {
    const auto v = graph.findValue(name);
    const Initializer* init = v ? graph.initializerOf(*v) : nullptr;
    if (!init) return {};
    auto values = tensorAsFloats(*init->proto, init->rawBytes);
    return values ? *values : std::vector<float>{};
}

// The imported model is the source: same nodes, same tensors, all float32, no Cast; float I/O float32.
void expectSourceModel(const Graph& source, const Graph& imported) {
    EXPECT_EQ(nodeNames(imported), nodeNames(source));
    EXPECT_EQ(valueNames(imported), valueNames(source));
    for (const Node& node : imported.nodes()) {
        EXPECT_NE(node.opType, "Cast") << node.name;
        EXPECT_EQ(node.opType, source.node(*source.findNode(node.name)).opType) << node.name;
    }
    for (const Value& value : imported.values())
        EXPECT_EQ(value.type.dtype, source.value(*source.findValue(value.name)).type.dtype) << value.name;
    EXPECT_EQ(initializerValues(imported, "k"), initializerValues(source, "k"));  // the original, not the copy
    std::vector<float> halfK2;
    for (float f : initializerValues(source, "k2")) halfK2.push_back(halfToFloat(floatToHalf(f)));
    EXPECT_EQ(initializerValues(imported, "k2"), halfK2);  // only the float16 copy was left
}

// The default plan keeps the island nodes FP16; nodes the source plan kept FP32 are made FP32 again.
PrecisionPlan replan(const Graph& graph, const std::vector<std::string>& fp16Nodes) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const Node& node : graph.nodes()) {
        if (std::find(fp16Nodes.begin(), fp16Nodes.end(), node.name) != fp16Nodes.end())
            EXPECT_EQ(plan.requested(node.id), Precision::Fp16) << node.name;
        else if (plan.requested(node.id) == Precision::Fp16)
            plan.setRequested(node.id, Precision::Fp32);
    }
    return plan;
}

void expectRoundTrip(bool fp16Io) {
    auto source = mixedModel();
    const Graph& graph = source->graph();
    const auto calib = calibration(graph);
    const QdqExport first = strongExport(*source, mixedPlan(graph), calib, fp16Io);
    ASSERT_TRUE(first.prepared);
    auto exported = loadProto(first.proto, "q11.onnx");
    ASSERT_TRUE(exported);
    ASSERT_EQ(islandNodes(exported->graph()), std::set<std::string>(kFp16Layers.begin(), kFp16Layers.end()));
    EXPECT_TRUE(hasFloat16Islands(exported->graph()));

    auto imported = dequantizeQdqModel(*exported);
    ASSERT_TRUE(imported) << imported.status().message();
    expectSourceModel(graph, imported->model->graph());
    EXPECT_EQ(imported->fp16Nodes, kFp16Layers);
    EXPECT_EQ(imported->float16Io, fp16Io);
    EXPECT_FALSE(hasFloat16Islands(imported->model->graph()));

    const Graph& fp32 = imported->model->graph();
    const QdqExport second =
        strongExport(*imported->model, replan(fp32, imported->fp16Nodes), imported->scales, fp16Io);
    ASSERT_TRUE(second.prepared);
    auto again = loadProto(second.proto, "again.onnx");
    ASSERT_TRUE(again);
    EXPECT_EQ(islandNodes(again->graph()), islandNodes(exported->graph()));
    const auto scales = scalesByInput(first.proto);
    EXPECT_EQ(scales.size(), 2u);  // conv's input and weight
    EXPECT_EQ(scalesByInput(second.proto), scales);
}

TEST(Fp16ImportTest, StronglyTypedExportComesBackAsItsSourceAndReexportsTheSameIslands) {
    expectRoundTrip(false);
}

TEST(Fp16ImportTest, Fp16IoExportComesBackWithFloat32InputsAndOutputs) {
    expectRoundTrip(true);
}

// ModelOpt AutoCast style, no Q/DQ: Cast to float16 -> Relu -> Add of a float16 initializer -> Cast back.
TEST(Fp16ImportTest, AutoCastIslandWithoutQdqImports) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.initializer("bias", DataType::Float16, {4}, {0.5, -1.0, 0.25, 3.0});
    b.node("Cast", {"x"}, {"x16"}, "to_half").i("to", onnx::TensorProto::FLOAT16);
    b.node("Relu", {"x16"}, {"r16"}, "relu");
    b.node("Add", {"r16", "bias"}, {"a16"}, "add");
    b.node("Cast", {"a16"}, {"y"}, "to_float").i("to", onnx::TensorProto::FLOAT);
    b.output("y");
    auto model = b.load();
    EXPECT_TRUE(hasFloat16Islands(model->graph()));
    EXPECT_FALSE(hasQdqNodes(model->graph()));
    auto imported = dequantizeQdqModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Graph& graph = imported->model->graph();
    ASSERT_EQ(graph.nodes().size(), 2u);
    EXPECT_EQ(graph.value(graph.node(*graph.findNode("relu")).inputs[0]).name, "x");
    EXPECT_EQ(graph.value(graph.node(*graph.findNode("add")).outputs[0]).name, "y");
    for (const Value& value : graph.values()) EXPECT_EQ(value.type.dtype, DataType::Float) << value.name;
    EXPECT_EQ(initializerValues(graph, "bias"), (std::vector<float>{0.5f, -1.0f, 0.25f, 3.0f}));
    EXPECT_EQ(imported->fp16Nodes, (std::vector<std::string>{"relu", "add"}));
    EXPECT_FALSE(imported->float16Io);
    EXPECT_TRUE(imported->scales.activations.empty());
}

// Casts of the model's own logic stay: int64 -> float, and a Cast to float16 writing an output of a model whose
// other input is float32 (its interface, not an island).
TEST(Fp16ImportTest, CastsOfTheModelsOwnLogicStay) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.input("n", DataType::Int64, {1, 4});
    b.node("Cast", {"n"}, {"nf"}, "n_float").i("to", onnx::TensorProto::FLOAT);
    b.node("Cast", {"x"}, {"x16"}, "to_half").i("to", onnx::TensorProto::FLOAT16);
    b.node("Relu", {"x16"}, {"r16"}, "relu");
    b.node("Cast", {"r16"}, {"r"}, "to_float").i("to", onnx::TensorProto::FLOAT);
    b.node("Add", {"r", "nf"}, {"y"}, "add");
    b.node("Cast", {"y"}, {"yh"}, "out_half").i("to", onnx::TensorProto::FLOAT16);
    b.output("y");
    b.output("yh", DataType::Float16);
    auto model = b.load();
    auto imported = dequantizeQdqModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Graph& graph = imported->model->graph();
    std::vector<std::string> casts;
    for (const Node& node : graph.nodes())
        if (node.opType == "Cast") casts.push_back(node.name);
    EXPECT_EQ(casts, (std::vector<std::string>{"n_float", "out_half"}));
    EXPECT_EQ(graph.value(*graph.findValue("yh")).type.dtype, DataType::Float16);
    EXPECT_EQ(graph.value(graph.node(*graph.findNode("relu")).inputs[0]).name, "x");
    EXPECT_EQ(graph.value(graph.node(*graph.findNode("relu")).outputs[0]).name, "r");
    EXPECT_EQ(imported->fp16Nodes, (std::vector<std::string>{"relu"}));

    // Without the island, nothing here is one.
    ModelBuilder plain;
    plain.input("x", DataType::Float, {1, 4});
    plain.input("n", DataType::Int64, {1, 4});
    plain.node("Cast", {"n"}, {"nf"}, "n_float").i("to", onnx::TensorProto::FLOAT);
    plain.node("Add", {"x", "nf"}, {"y"}, "add");
    plain.node("Cast", {"y"}, {"yh"}, "out_half").i("to", onnx::TensorProto::FLOAT16);
    plain.output("yh", DataType::Float16);
    EXPECT_FALSE(hasFloat16Islands(plain.load()->graph()));
}

}  // namespace
}  // namespace ql
