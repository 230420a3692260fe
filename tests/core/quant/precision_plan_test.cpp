#include "core/quant/precision_plan.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// x -> conv -> relu -> pool -> reshape -> gemm -> softmax -> y, at batch 2 (at batch 1 the gemm is a matrix-vector
// product, which the placement keeps in float).
std::unique_ptr<Model> classifier(int64_t batch = 2) {
    ModelBuilder b;
    b.input("x", DataType::Float, {batch, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.initializer("shape", DataType::Int64, {2}, {static_cast<double>(batch), 64});
    b.initializer("fc", {64, 10}, test::seededFloats(640));
    b.node("Conv", {"x", "w"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("MaxPool", {"r"}, {"p"}, "pool").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    b.node("Reshape", {"p", "shape"}, {"f"}, "reshape");
    b.node("Gemm", {"f", "fc"}, {"g"}, "gemm");
    b.node("Softmax", {"g"}, {"y"}, "softmax");
    b.output("y");
    return b.load();
}

Precision requestedOf(const Graph& g, const PrecisionPlan& plan, const char* name) {
    return plan.requested(*g.findNode(name));
}

TEST(DefaultPlacement, Int8ForWeightedLayersAndWhatFusesBetweenThem) {
    auto model = classifier();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "conv"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "relu"), Precision::Int8);     // fused into the conv
    EXPECT_EQ(requestedOf(g, plan, "pool"), Precision::Int8);     // after an INT8 layer
    EXPECT_EQ(requestedOf(g, plan, "reshape"), Precision::Int8);  // between INT8 layers
    EXPECT_EQ(requestedOf(g, plan, "gemm"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "softmax"), Precision::Fp16);  // no INT8 implementation: TensorRT's choice
}

// ModelOpt's find_nodes_from_matmul_to_exclude: a GEMV (M or N = 1) gains nothing from INT8; trt-int8-gemv agrees.
TEST(DefaultPlacement, AClassifierHeadAtBatchOneStaysInFloat) {
    auto model = classifier(1);
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "conv"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "gemm"), Precision::Fp16);
    EXPECT_NE(plan.placementNote(*g.findNode("gemm")).find("matrix-vector product"), std::string::npos)
        << plan.placementNote(*g.findNode("gemm"));
}

TEST(DefaultPlacement, ShapeNodesStayFp32AndFloatNodesOutsideInt8AreFp16) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16, 1));
    b.node("Shape", {"x"}, {"s"}, "shape");
    b.node("Sigmoid", {"x"}, {"g"}, "gate");
    b.node("Conv", {"g", "w"}, {"y"}, "conv");
    b.output("y");
    b.output("s", DataType::Int64);
    auto model = b.load();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "shape"), Precision::Fp32);  // computes no float: precision means nothing
    EXPECT_EQ(requestedOf(g, plan, "gate"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "conv"), Precision::Int8);
}

TEST(DefaultPlacement, SiluAfterAnInt8ConvFusesIntoIt) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {4, 4, 1, 1}, test::seededFloats(16, 1));
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Sigmoid", {"c"}, {"sg"}, "silu_sigmoid");
    b.node("Mul", {"c", "sg"}, {"y"}, "silu_mul");
    b.node("Sigmoid", {"y"}, {"p"}, "head_sigmoid");  // a bare Sigmoid is no SiLU
    b.node("Sigmoid", {"x"}, {"xs"}, "input_sigmoid");
    b.node("Mul", {"x", "xs"}, {"q"}, "input_silu");  // a SiLU of a graph input: nothing to fuse into
    b.output("p");
    b.output("q");
    auto model = b.load();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "silu_sigmoid"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "silu_mul"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "head_sigmoid"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "input_sigmoid"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "input_silu"), Precision::Fp16);
}

// A YOLOv8-style head: box branch conv -> Reshape -> Softmax -> DFL Conv, class branch conv -> Sigmoid, both
// concatenated into the output.
std::unique_ptr<Model> tinyYoloHead() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8, 4, 4});
    b.initializer("wb", {64, 8, 1, 1}, test::seededFloats(512, 1));
    b.initializer("wc", {3, 8, 1, 1}, test::seededFloats(24, 2));
    b.initializer("wt", {8, 8, 3, 3}, test::seededFloats(576, 3));
    b.initializer("dfl", {1, 16, 1, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    b.initializer("bins", DataType::Int64, {4}, {1, 4, 16, 16});
    b.initializer("box_shape", DataType::Int64, {3}, {1, 4, 16});
    b.initializer("cls_shape", DataType::Int64, {3}, {1, 3, 16});
    b.node("Conv", {"x", "wt"}, {"t"}, "trunk").ints("pads", {1, 1, 1, 1});
    b.node("Conv", {"t", "wb"}, {"box"}, "box_out");
    b.node("Conv", {"t", "wc"}, {"cls"}, "cls_out");
    b.node("Reshape", {"box", "bins"}, {"box4"}, "box_bins");
    b.node("Transpose", {"box4"}, {"box_t"}, "box_t").ints("perm", {0, 2, 1, 3});
    b.node("Softmax", {"box_t"}, {"prob"}, "dfl_softmax").i("axis", 1);
    b.node("Conv", {"prob", "dfl"}, {"dist"}, "dfl_conv");
    b.node("Reshape", {"dist", "box_shape"}, {"sides"}, "sides");
    b.node("Reshape", {"cls", "cls_shape"}, {"logits"}, "logits");
    b.node("Sigmoid", {"logits"}, {"scores"}, "scores");
    b.node("Concat", {"sides", "scores"}, {"y"}, "out_concat").i("axis", 1);
    b.output("y");
    return b.load();
}

TEST(DefaultPlacement, YoloHeadsFinalConvsAndDflStayInFloatWithTheReason) {
    auto model = tinyYoloHead();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "trunk"), Precision::Int8);
    for (const char* head : {"box_out", "cls_out", "dfl_conv"}) {
        EXPECT_EQ(requestedOf(g, plan, head), Precision::Fp16) << head;
        EXPECT_NE(plan.placementNote(*g.findNode(head)).find("YOLO"), std::string::npos) << head;
    }
    EXPECT_NE(plan.placementNote(*g.findNode("dfl_conv")).find("DFL"), std::string::npos);
    const auto json = plan.toJson(g);
    EXPECT_TRUE(json["placement"].contains("dfl_conv"));
    // The note goes with the default: a user's request clears it.
    PrecisionPlan edited = plan;
    edited.setRequested(*g.findNode("dfl_conv"), Precision::Int8);
    EXPECT_TRUE(edited.placementNote(*g.findNode("dfl_conv")).empty());
}

// Planning for speed (tune --objective latency, the window's Tune dialog) starts the heads kept in float for accuracy
// INT8, from whichever plan it is given; a head the user set FP16 stays FP16.
TEST(DefaultPlacement, PlanningForSpeedStartsTheHeadsKeptForAccuracyInInt8ButNotTheUsersFp16) {
    auto model = tinyYoloHead();
    const Graph& g = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(g);
    plan.setRequested(*g.findNode("cls_out"), Precision::Fp16);  // the user's choice: no note
    // A plan saved and read back keeps the notes ("reasons"), so a --plan file starts the same way.
    auto reread = PrecisionPlan::fromJson(g, plan.toJson(g), "PLAN.json");
    ASSERT_TRUE(reread) << reread.status().message();
    for (PrecisionPlan* start : {&plan, &*reread}) {
        EXPECT_EQ(startDetectorHeadsInInt8(*start), 2);
        EXPECT_EQ(requestedOf(g, *start, "box_out"), Precision::Int8);
        EXPECT_EQ(requestedOf(g, *start, "dfl_conv"), Precision::Int8);
        EXPECT_EQ(requestedOf(g, *start, "cls_out"), Precision::Fp16);
    }
}

// Without a DFL the model is no YOLO detector: a segmenter's last conv before its Sigmoid output stays INT8.
TEST(DefaultPlacement, ALastConvBeforeASigmoidOutputIsNoHeadWithoutADfl) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w", {1, 4, 1, 1}, test::seededFloats(4, 1));
    b.node("Conv", {"x", "w"}, {"c"}, "mask_conv");
    b.node("Sigmoid", {"c"}, {"y"}, "mask");
    b.output("y");
    auto model = b.load();
    EXPECT_EQ(requestedOf(model->graph(), defaultPrecisionPlan(model->graph()), "mask_conv"), Precision::Int8);
}

TEST(DefaultPlacement, TheTrainedDetectorKeepsItsDflAndHeadOutputsInFloat) {
    auto model = Model::load(std::string(QL_TEST_DATA_DIR) + "/tune/detector.onnx");
    ASSERT_TRUE(model) << model.status().message();
    const Graph& g = (*model)->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    int fp16Convs = 0, int8Convs = 0;
    for (const Node& n : g.nodes()) {
        if (n.opType != "Conv") continue;
        (plan.requested(n.id) == Precision::Fp16 ? fp16Convs : int8Convs) += 1;
    }
    EXPECT_EQ(requestedOf(g, plan, "/dfl/Conv"), Precision::Fp16);
    for (const char* head : {"/outs.0/Conv", "/outs.1/Conv", "/outs.2/Conv"})
        EXPECT_EQ(requestedOf(g, plan, head), Precision::Fp16) << head;
    EXPECT_EQ(fp16Convs, 4);
    EXPECT_EQ(int8Convs, 14);
}

// q x kT -> scale -> Softmax -> x v over `tokens` tokens: attention as exporters write it.
std::unique_ptr<Model> attentionOver(int64_t tokens) {
    ModelBuilder b(17);
    b.input("q", DataType::Float, {1, 2, tokens, 32});
    b.input("kT", DataType::Float, {1, 2, 32, tokens});
    b.input("v", DataType::Float, {1, 2, tokens, 32});
    b.initializer("scale", {}, {0.177f});
    b.node("MatMul", {"q", "kT"}, {"scores"}, "qk");
    b.node("Mul", {"scores", "scale"}, {"scaled"}, "scale_scores");
    b.node("Softmax", {"scaled"}, {"probs"}, "softmax").i("axis", -1);
    b.node("MatMul", {"probs", "v"}, {"context"}, "pv");
    b.node("Transpose", {"context"}, {"y"}, "heads_back").ints("perm", {0, 2, 1, 3});
    b.output("y");
    return b.load();
}

// NVIDIA's placement: both batched MatMuls INT8 (the fused INT8 MHA kernel wants Q/DQ on both), the Softmax in float;
// beyond 512 tokens, where that kernel stops, both in float with the reason.
TEST(DefaultPlacement, AttentionIsInt8UpTo512TokensAndFloatBeyond) {
    auto shortModel = attentionOver(128);
    const Graph& s = shortModel->graph();
    const PrecisionPlan shortPlan = defaultPrecisionPlan(s);
    EXPECT_EQ(requestedOf(s, shortPlan, "qk"), Precision::Int8);
    EXPECT_EQ(requestedOf(s, shortPlan, "pv"), Precision::Int8);
    EXPECT_EQ(requestedOf(s, shortPlan, "softmax"), Precision::Fp16);
    EXPECT_TRUE(shortPlan.placementNote(*s.findNode("qk")).empty());

    auto longModel = attentionOver(1024);
    const Graph& l = longModel->graph();
    const PrecisionPlan longPlan = defaultPrecisionPlan(l);
    for (const char* bmm : {"qk", "pv"}) {
        EXPECT_EQ(requestedOf(l, longPlan, bmm), Precision::Fp16) << bmm;
        EXPECT_NE(longPlan.placementNote(*l.findNode(bmm)).find("more than 512 tokens"), std::string::npos) << bmm;
    }
    EXPECT_EQ(requestedOf(l, longPlan, "heads_back"), Precision::Fp16);  // follows its FP16 producer
}

TEST(DefaultPlacement, AModelCarryingFloat16KeepsItsOwnTypes) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.node("Relu", {"x"}, {"r"}, "fp32_relu");
    b.node("Cast", {"r"}, {"h"}, "to_half").i("to", 10);
    b.node("Sigmoid", {"h"}, {"s"}, "fp16_sigmoid");
    b.node("Cast", {"s"}, {"y"}, "to_float").i("to", 1);
    b.output("y");
    auto model = b.load();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "fp32_relu"), Precision::Fp32);
    EXPECT_EQ(requestedOf(g, plan, "fp16_sigmoid"), Precision::Fp16);
}

TEST(DefaultPlacement, ResidualAddAndItsActivationAreInt8) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 4, 4});
    b.initializer("w1", {4, 4, 1, 1}, test::seededFloats(16, 1));
    b.initializer("w2", {4, 4, 1, 1}, test::seededFloats(16, 2));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    b.node("Conv", {"r1", "w2"}, {"c2"}, "conv2");
    b.node("Add", {"c2", "r1"}, {"s"}, "add");
    b.node("Relu", {"s"}, {"y"}, "relu2");
    b.node("Sigmoid", {"y"}, {"z"}, "sigmoid");
    b.output("z");
    auto model = b.load();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "add"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "relu2"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "sigmoid"), Precision::Fp16);  // a bare Sigmoid: not fused, TensorRT's choice
}

TEST(DefaultPlacement, PassThroughChainsNeedInt8OnBothSides) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2, 6});
    b.initializer("w", {6, 6}, test::seededFloats(36));
    b.initializer("w2", {2, 6}, test::seededFloats(12, 3));
    b.initializer("shape", DataType::Int64, {2}, {6, 2});
    b.node("Reshape", {"x", "shape"}, {"xr"}, "input_reshape");  // fed by a graph input: stays FP32
    b.node("Transpose", {"xr"}, {"xt"}, "input_transpose");
    b.node("MatMul", {"xt", "w"}, {"m"}, "matmul");
    b.node("Reshape", {"m", "shape"}, {"a"}, "reshape_a");  // matmul -> reshape -> transpose -> matmul
    b.node("Transpose", {"a"}, {"t"}, "transpose_a");
    b.node("MatMul", {"t", "w2"}, {"m2"}, "matmul2");
    b.node("Flatten", {"m2"}, {"y"}, "flatten");       // ends at a graph output: stays FP32
    b.node("Transpose", {"m"}, {"u"}, "transpose_b");  // feeds a non-INT8 op: stays FP32
    b.node("Softmax", {"u"}, {"v"}, "softmax");
    b.output("y");
    b.output("v");
    auto model = b.load();
    const Graph& g = model->graph();
    const PrecisionPlan plan = defaultPrecisionPlan(g);
    EXPECT_EQ(requestedOf(g, plan, "input_reshape"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "input_transpose"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "reshape_a"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "transpose_a"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, plan, "flatten"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, plan, "transpose_b"), Precision::Fp16);
}

class GroupedConvPolicy final : public PrecisionPolicy {
public:
    void apply(const Graph& graph, PrecisionPlan& plan) const override {
        for (const Node& n : graph.nodes())
            if (n.opType == "Conv" && plan.requested(n.id) == Precision::Int8)
                plan.setEffective(n.id, Precision::Fp16, "test-rule: grouped conv");
    }
};

class EverythingFp32Policy final : public PrecisionPolicy {
public:
    void apply(const Graph& graph, PrecisionPlan& plan) const override {
        for (const Node& n : graph.nodes())
            if (plan.effective(n.id) != Precision::Fp32) plan.setEffective(n.id, Precision::Fp32, "second rule");
    }
};

TEST(PrecisionPlan, PoliciesLowerTheEffectivePrecisionWithAReason) {
    auto model = classifier();
    const Graph& g = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(g);
    plan.setRequested(*g.findNode("softmax"), Precision::Fp32);
    const NodeId conv = *g.findNode("conv"), gemm = *g.findNode("gemm");
    const GroupedConvPolicy grouped;
    const EverythingFp32Policy fp32;
    const std::vector<const PrecisionPolicy*> policies = {&grouped, &fp32};
    plan.applyPolicies(g, policies);
    EXPECT_EQ(plan.requested(conv), Precision::Int8);
    EXPECT_EQ(plan.effective(conv), Precision::Fp32);
    EXPECT_EQ(plan.reason(conv), "test-rule: grouped conv; second rule");
    EXPECT_EQ(plan.reason(gemm), "second rule");
    EXPECT_EQ(plan.reason(*g.findNode("softmax")), "");
    // Re-applying starts from the requested precisions: reasons do not pile up.
    const std::vector<const PrecisionPolicy*> justGrouped = {&grouped};
    plan.applyPolicies(g, justGrouped);
    EXPECT_EQ(plan.effective(conv), Precision::Fp16);
    EXPECT_EQ(plan.reason(conv), "test-rule: grouped conv");
    EXPECT_EQ(plan.effective(gemm), Precision::Int8);
    // A new request resets the node's effective precision.
    plan.setRequested(conv, Precision::Fp16);
    EXPECT_EQ(plan.effective(conv), Precision::Fp16);
    EXPECT_EQ(plan.reason(conv), "");
}

TEST(PrecisionPlan, SavesAndLoadsRequestedPrecisions) {
    auto model = classifier();
    const Graph& g = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(g);
    plan.setRequested(*g.findNode("gemm"), Precision::Fp16);
    plan.setEffective(*g.findNode("conv"), Precision::Fp32, "why");
    TempDir dir;
    ASSERT_TRUE(plan.save(g, dir.file("plan.json")).isOk());
    auto loaded = PrecisionPlan::load(g, dir.file("plan.json"));
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    for (const Node& n : g.nodes()) {
        EXPECT_EQ(loaded->requested(n.id), plan.requested(n.id)) << n.name;
        EXPECT_EQ(loaded->effective(n.id), loaded->requested(n.id)) << "effective is derived, not loaded";
    }
    const nlohmann::json json = plan.toJson(g);
    EXPECT_EQ(json["format"], "quantlens-plan");
    EXPECT_EQ(json["version"], 1);
    EXPECT_EQ(json["nodes"]["gemm"], "fp16");
    EXPECT_EQ(json["effective"]["conv"]["reason"], "why");
}

Result<PrecisionPlan> fromText(const Graph& g, const std::string& text) {
    return PrecisionPlan::fromJson(g, nlohmann::json::parse(text), "plan.json");
}

TEST(PrecisionPlan, PartialPlansStartFromTheDefaultsOrTheGivenDefault) {
    auto model = classifier();
    const Graph& g = model->graph();
    auto partial = fromText(g, R"({"format": "quantlens-plan", "version": 1, "nodes": {"softmax": "FP16"}})");
    ASSERT_TRUE(partial.isOk()) << partial.status().message();
    EXPECT_EQ(requestedOf(g, *partial, "softmax"), Precision::Fp16);
    EXPECT_EQ(requestedOf(g, *partial, "conv"), Precision::Int8);
    auto allFp16 =
        fromText(g, R"({"format": "quantlens-plan", "version": 1, "default": "fp16", "nodes": {"conv": "int8"}})");
    ASSERT_TRUE(allFp16.isOk()) << allFp16.status().message();
    EXPECT_EQ(requestedOf(g, *allFp16, "conv"), Precision::Int8);
    EXPECT_EQ(requestedOf(g, *allFp16, "gemm"), Precision::Fp16);
}

void expectError(const Result<PrecisionPlan>& r, const std::vector<std::string>& fragments) {
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("plan.json"), std::string::npos) << r.status().message();
    for (const auto& f : fragments) EXPECT_NE(r.status().message().find(f), std::string::npos) << r.status().message();
}

// The tuner's reason for a layer (and a placement's) survives the plan file: "reasons" is read back.
TEST(PrecisionPlan, ReasonsRoundTripAndOldPlansWithoutThemStillLoad) {
    auto model = classifier();
    const Graph& g = model->graph();
    PrecisionPlan plan = defaultPrecisionPlan(g);
    const NodeId gemm = *g.findNode("gemm"), conv = *g.findNode("conv");
    plan.setRequested(gemm, Precision::Fp16, "tune: fp16, alone in INT8: 18.3 dB at the outputs");
    plan.setPlacementNote(conv, "tune: input 'x' calibrated with mse");
    const nlohmann::json json = plan.toJson(g);
    EXPECT_EQ(json["reasons"]["gemm"], "tune: fp16, alone in INT8: 18.3 dB at the outputs");
    auto loaded = PrecisionPlan::fromJson(g, nlohmann::json::parse(json.dump()), "plan.json");
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    EXPECT_EQ(loaded->requested(gemm), Precision::Fp16);
    EXPECT_EQ(loaded->placementNote(gemm), plan.placementNote(gemm));
    EXPECT_EQ(loaded->explanation(gemm), plan.placementNote(gemm));
    EXPECT_EQ(loaded->placementNote(conv), "tune: input 'x' calibrated with mse");
    EXPECT_EQ(loaded->requested(conv), Precision::Int8);
    auto old = fromText(g, R"({"format": "quantlens-plan", "version": 1, "nodes": {"gemm": "fp16"}})");
    ASSERT_TRUE(old.isOk()) << old.status().message();
    EXPECT_TRUE(old->placementNote(gemm).empty());
}

TEST(PrecisionPlan, BadReasonsAreAnErrorNamingTheNode) {
    auto model = classifier();
    expectError(fromText(model->graph(), R"({"format": "quantlens-plan", "version": 1, "nodes": {},
        "reasons": {"head": "tune: fp16"}})"),
                {"\"reasons\"", "'head'"});
    expectError(fromText(model->graph(), R"({"format": "quantlens-plan", "version": 1, "nodes": {},
        "reasons": {"gemm": 3}})"),
                {"'gemm'", "string"});
    expectError(fromText(model->graph(), R"({"format": "quantlens-plan", "version": 1, "nodes": {},
        "reasons": ["gemm"]})"),
                {"\"reasons\""});
}

TEST(PrecisionPlan, UnknownNodeNamesAreAnErrorNamingThem) {
    auto model = classifier();
    const auto r = fromText(model->graph(), R"({"format": "quantlens-plan", "version": 1,
        "nodes": {"conv": "int8", "conv_9": "int8", "head": "fp16"}})");
    expectError(r, {"2 node(s)", "'conv_9'", "'head'"});
    EXPECT_EQ(r.status().code(), StatusCode::NotFound);
}

TEST(PrecisionPlan, RejectsBadPrecisionsFormatsAndVersions) {
    auto model = classifier();
    const Graph& g = model->graph();
    expectError(fromText(g, R"({"format": "quantlens-plan", "version": 1, "nodes": {"conv": "int4"}})"),
                {"'conv'", "\"int4\"", "\"int8\""});
    expectError(fromText(g, R"({"format": "quantlens-plan", "version": 1, "nodes": {"conv": 8}})"), {"'conv'"});
    expectError(fromText(g, R"({"format": "quantlens-plan", "version": 1, "default": "int2", "nodes": {}})"),
                {"\"default\""});
    expectError(fromText(g, R"({"format": "other", "version": 1, "nodes": {}})"), {"format"});
    expectError(fromText(g, R"({"format": 3, "version": 1, "nodes": {}})"), {"format"});
    expectError(fromText(g, R"({"format": "quantlens-plan", "version": 2, "nodes": {}})"), {"version 2"});
    expectError(fromText(g, R"({"format": "quantlens-plan", "version": 1})"), {"\"nodes\""});
    expectError(fromText(g, R"([1, 2])"), {"JSON object"});
}

TEST(PrecisionPlan, LoadReportsUnreadableFiles) {
    auto model = classifier();
    TempDir dir;
    test::writeFile(dir.file("plan.json"), "{ not json");
    expectError(PrecisionPlan::load(model->graph(), dir.file("plan.json")), {"not valid JSON"});
    auto missing = PrecisionPlan::load(model->graph(), dir.file("missing.json"));
    ASSERT_FALSE(missing.isOk());
    EXPECT_EQ(missing.status().code(), StatusCode::IoError);
}

// Found by fuzz_precision_plan: json::value("format", "") threw (an abort) when "format" was a number.
TEST(PrecisionPlan, LoadRefusesMembersOfTheWrongTypeWithoutThrowing) {
    auto model = classifier();
    TempDir dir;
    test::writeFile(dir.file("plan.json"), R"({"format": 1, "default": "fp32", "nodes": {}})");
    auto plan = PrecisionPlan::load(model->graph(), dir.file("plan.json"));
    EXPECT_FALSE(plan.isOk());
}

TEST(PrecisionPlan, ParsesPrecisionNames) {
    EXPECT_EQ(parsePrecision("INT8"), Precision::Int8);
    EXPECT_EQ(parsePrecision("fp16"), Precision::Fp16);
    EXPECT_EQ(parsePrecision("Fp32"), Precision::Fp32);
    EXPECT_EQ(parsePrecision("bf16"), std::nullopt);
    EXPECT_STREQ(precisionName(Precision::Int8), "int8");
}

}  // namespace
}  // namespace ql
