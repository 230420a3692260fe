// Strongly typed export: the plan's FP16 layers as float16 islands, the FP16 guards (activation range, initializer
// range, BatchNormalization folded first), the model's I/O types kept unless --fp16-io, and the weak form untouched.
#include <gtest/gtest.h>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <cmath>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
#include "core/export/effective_plan.h"
#include "core/export/qdq_export.h"
#include "core/lint/lint_policy.h"
#include "core/quant/default_placement.h"
#include "core/quant/simulation.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::seededFloats;

constexpr TrtTarget kTrt11{TrtVersion::Trt11, TrtTyping::Strong};

// x -> conv1 (INT8) -> relu1 -> conv2 (FP16) -> relu2 -> conv3 (INT8) -> sigmoid (FP16) -> y
std::unique_ptr<Model> threeConvs(float conv2WeightScale = 1.0f) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 6, 6});
    b.initializer("w1", {8, 4, 3, 3}, seededFloats(288, 1));
    auto w2 = seededFloats(576, 2);
    for (float& v : w2) v *= conv2WeightScale;
    b.initializer("w2", {8, 8, 3, 3}, w2);
    b.initializer("b2", {8}, seededFloats(8, 5));
    b.initializer("w3", {8, 8, 1, 1}, seededFloats(64, 3));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {"r1", "w2", "b2"}, {"c2"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c2"}, {"r2"}, "relu2");
    b.node("Conv", {"r2", "w3"}, {"c3"}, "conv3");
    b.node("Sigmoid", {"c3"}, {"y"}, "sigmoid");
    b.output("y");
    return b.load();
}

PrecisionPlan planWithFp16(const Graph& graph, const std::vector<std::string>& fp16,
                           const CalibrationResult& calibration) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const auto& name : fp16) plan.setRequested(*graph.findNode(name), Precision::Fp16);
    const TrtPolicies policies(TrtVersion::Trt11, Precision::Fp16, &calibration);
    plan.applyPolicies(graph, policies.list());
    return plan;
}

// The ONNX checker, then shape inference with type checks that throw: a Cast missing at an island's edge (a float16
// tensor meeting a float32 one in a node) fails here.
void checkStrictly(const onnx::ModelProto& proto) {
    onnx::checker::check_model(proto);
    onnx::ModelProto copy = proto;
    onnx::ShapeInferenceOptions options{true, 1, false};
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), options);
}

const onnx::NodeProto* nodeNamed(const onnx::ModelProto& model, const std::string& name) {
    for (const auto& node : model.graph().node())
        if (node.name() == name) return &node;
    return nullptr;
}

int elemTypeOf(const onnx::ModelProto& model, const std::string& tensor) {
    for (const auto* list : {&model.graph().value_info(), &model.graph().input(), &model.graph().output()})
        for (const auto& info : *list)
            if (info.name() == tensor) return info.type().tensor_type().elem_type();
    for (const auto& init : model.graph().initializer())
        if (init.name() == tensor) return init.data_type();
    return -1;
}

int countOp(const onnx::ModelProto& model, const std::string& op) {
    int n = 0;
    for (const auto& node : model.graph().node()) n += node.op_type() == op ? 1 : 0;
    return n;
}

// The exported file in the executor against the simulation of the plan on the source model.
void expectFileEqualsSimulation(const Model& source, const PrecisionPlan& plan, const CalibrationResult& calibration,
                                const onnx::ModelProto& exported) {
    auto file = test::loadProto(exported);
    ASSERT_TRUE(file);
    auto inputs = randomInputs(source.graph());
    ASSERT_TRUE(inputs);
    auto fileExec = Executor::create(file->graph());
    ASSERT_TRUE(fileExec) << fileExec.status().message();
    auto fileOut = (*fileExec)->run(*inputs);
    ASSERT_TRUE(fileOut) << fileOut.status().message();
    auto simulator = QuantSimulator::create(source.graph(), plan, calibration);
    ASSERT_TRUE(simulator) << simulator.status().message();
    auto simExec = Executor::create(source.graph());
    ASSERT_TRUE(simExec);
    RunOptions simulated;
    simulated.interceptor = simulator->get();
    auto simOut = (*simExec)->run(*inputs, simulated);
    ASSERT_TRUE(simOut) << simOut.status().message();
    ASSERT_EQ(fileOut->size(), simOut->size());
    for (size_t o = 0; o < simOut->size(); ++o) {
        EXPECT_EQ((*fileOut)[o].first, (*simOut)[o].first);
        const auto a = (*fileOut)[o].second.toFloats(), b = (*simOut)[o].second.toFloats();
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6f * std::max(1.0f, std::fabs(b[i]))) << i;
    }
}

TEST(Fp16IslandsTest, Fp16LayersBecomeFloat16BetweenCastsAndTheFileComputesWhatTheSimulationPredicts) {
    auto model = threeConvs();
    const auto calibration = test::uniformCalibration(model->graph());
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv2"}, calibration);
    auto result = exportQdq(*model, plan, calibration, {}, {.trt = kTrt11});
    ASSERT_TRUE(result) << result.status().message();
    EXPECT_NO_THROW(checkStrictly(result->proto));
    const auto* conv2 = nodeNamed(result->proto, "conv2");
    ASSERT_NE(conv2, nullptr);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(elemTypeOf(result->proto, conv2->input(i)), onnx::TensorProto::FLOAT16);
    EXPECT_EQ(conv2->input(1), "w2_fp16");                                 // a float16 initializer, not a Cast
    EXPECT_EQ(elemTypeOf(result->proto, "r2"), onnx::TensorProto::FLOAT);  // cast back before conv3's Q/DQ
    EXPECT_EQ(nodeNamed(result->proto, "relu2")->output(0), "r2_fp16");    // the Relu follows its conv in float16
    EXPECT_EQ(result->islands.nodes, 3);                                   // conv2, relu2, sigmoid
    for (const auto& node : result->proto.graph().node()) {
        if (node.op_type() != "QuantizeLinear" && node.op_type() != "DequantizeLinear") continue;
        EXPECT_EQ(elemTypeOf(result->proto, node.input(1)), onnx::TensorProto::FLOAT) << node.name();
    }
    expectFileEqualsSimulation(*model, plan, calibration, result->proto);
}

TEST(Fp16IslandsTest, TheModelsInputAndOutputTypesAreKeptUnlessAsked) {
    auto model = threeConvs();
    const auto calibration = test::uniformCalibration(model->graph());
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv1", "conv2"}, calibration);
    auto kept = exportQdq(*model, plan, calibration, {}, {.trt = kTrt11});
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->proto.graph().input(0).type().tensor_type().elem_type(), onnx::TensorProto::FLOAT);
    EXPECT_EQ(kept->proto.graph().output(0).type().tensor_type().elem_type(), onnx::TensorProto::FLOAT);
    EXPECT_EQ(nodeNamed(kept->proto, "conv1")->input(0), "x_fp16");  // a Cast of the float32 input
    expectFileEqualsSimulation(*model, plan, calibration, kept->proto);
    auto halfIo = exportQdq(*model, plan, calibration, {}, {.trt = kTrt11, .fp16Io = true});
    ASSERT_TRUE(halfIo);
    EXPECT_NO_THROW(checkStrictly(halfIo->proto));
    EXPECT_EQ(halfIo->proto.graph().input(0).type().tensor_type().elem_type(), onnx::TensorProto::FLOAT16);
    EXPECT_EQ(halfIo->proto.graph().output(0).type().tensor_type().elem_type(), onnx::TensorProto::FLOAT16);
    auto file = test::loadProto(halfIo->proto);
    ASSERT_TRUE(file);
    auto exec = Executor::create(file->graph());
    ASSERT_TRUE(exec);
    auto inputs = randomInputs(file->graph());
    ASSERT_TRUE(inputs);
    EXPECT_TRUE((*exec)->run(*inputs));
}

TEST(Fp16IslandsTest, ActivationsBeyondFp16sSafeRangeKeepTheLayerFp32WithTheReason) {
    auto model = threeConvs();
    const auto calibration = test::uniformCalibration(model->graph(), {{"c2", 1000.0f}});
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv2"}, calibration);
    const NodeId conv2 = *model->graph().findNode("conv2");
    EXPECT_EQ(plan.effective(conv2), Precision::Fp32);  // the simulation sees it FP32 too
    EXPECT_NE(plan.reason(conv2).find("FP16 guard: output 'c2' reaches 1000"), std::string::npos) << plan.reason(conv2);
    auto result = exportQdq(*model, plan, calibration, {}, {.trt = kTrt11});
    ASSERT_TRUE(result);
    EXPECT_EQ(nodeNamed(result->proto, "conv2")->input(1), "w2");
    const auto summary = qdqSummaryJson(*result);
    bool found = false;
    for (const auto& layer : summary["layers"])
        if (layer["layer"] == "conv2") {
            found = true;
            EXPECT_EQ(layer["precision"], "fp32");
            EXPECT_NE(layer["reason"].get<std::string>().find("FP16 guard"), std::string::npos);
        }
    EXPECT_TRUE(found);
}

TEST(Fp16IslandsTest, InitializersBeyondFloat16KeepTheLayerFp32) {
    auto model = threeConvs(1e5f);
    const auto calibration = test::uniformCalibration(model->graph());
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv2"}, calibration);
    const NodeId conv2 = *model->graph().findNode("conv2");
    EXPECT_EQ(plan.effective(conv2), Precision::Fp32);
    EXPECT_NE(plan.reason(conv2).find("initializer 'w2'"), std::string::npos) << plan.reason(conv2);
}

// Conv -> BatchNormalization: the conv's own output (pre-BN) reaches 2000, but the export folds the
// BatchNormalization, whose output stays small: the layer is judged after folding and stays FP16.
TEST(Fp16IslandsTest, BatchNormalizationIsFoldedBeforeTheGuardDecides) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 6, 6});
    b.initializer("w", {4, 4, 3, 3}, seededFloats(144, 1));
    b.initializer("gamma", {4}, {0.01f, 0.01f, 0.01f, 0.01f});
    b.initializer("beta", {4}, {0.0f, 0.1f, 0.2f, 0.3f});
    b.initializer("mean", {4}, {0.0f, 0.0f, 0.0f, 0.0f});
    b.initializer("var", {4}, {1.0f, 1.0f, 1.0f, 1.0f});
    b.node("Conv", {"x", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c", "gamma", "beta", "mean", "var"}, {"y"}, "bn");
    b.output("y");
    auto model = b.load();
    const auto calibration = test::uniformCalibration(model->graph(), {{"c", 2000.0f}, {"y", 20.0f}});
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv", "bn"}, calibration);
    EXPECT_EQ(plan.effective(*model->graph().findNode("conv")), Precision::Fp16) << plan.reason(0);
    auto result = exportQdq(*model, plan, calibration, {}, {.trt = kTrt11});
    ASSERT_TRUE(result) << result.status().message();
    EXPECT_EQ(result->islands.nodes, 1);
    EXPECT_EQ(countOp(result->proto, "BatchNormalization"), 0);
    EXPECT_NO_THROW(checkStrictly(result->proto));
}

TEST(Fp16IslandsTest, WeaklyTypedExportWritesNoFloat16) {
    auto model = threeConvs();
    const auto calibration = test::uniformCalibration(model->graph());
    const PrecisionPlan plan = planWithFp16(model->graph(), {"conv2"}, calibration);
    auto result = exportQdq(*model, plan, calibration, {}, {.trt = {TrtVersion::Trt10, TrtTyping::Weak}});
    ASSERT_TRUE(result);
    EXPECT_EQ(countOp(result->proto, "Cast"), 0);
    EXPECT_EQ(result->islands.nodes, 0);
    EXPECT_EQ(nodeNamed(result->proto, "conv2")->input(1), "w2");
}

}  // namespace
}  // namespace ql
