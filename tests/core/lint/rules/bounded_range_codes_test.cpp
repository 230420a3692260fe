// trt-bounded-range-codes: a tensor the graph bounds (Sigmoid scores in [0, 1]) under a scale that leaves it one code
// (every value rounds to 0) or a few, known without a calibration.
#include <gtest/gtest.h>

#include <set>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-bounded-range-codes";
constexpr float kBoxScale = 640.0f / 127.0f;  // 5.04

// A YOLO-style output: pixel boxes and Sigmoid scores, each behind a Q/DQ pair, concatenated; the Concat's output
// quantized again when `outputScale` > 0.
std::unique_ptr<Model> detector(float scoreScale, float outputScale) {
    test::ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("logits", DataType::Float, {1, 3, 8});
    b.node("Sigmoid", {"logits"}, {"scores"}, "score_sigmoid");
    const std::string boxes = test::addQdq(b, "boxes", test::perTensor(kBoxScale));
    const std::string scores = test::addQdq(b, "scores", test::perTensor(scoreScale));
    b.node("Concat", {boxes, scores}, {"out"}, "output_concat").i("axis", 1);
    std::string out = "out";
    if (outputScale > 0.0f) out = test::addQdq(b, "out", test::perTensor(outputScale));
    b.node("Identity", {out}, {"y"}, "y");
    b.output("y");
    return b.load();
}

std::vector<Finding> findingsOf(const Model& model, std::string_view rule, const PrecisionPlan& plan,
                                const CalibrationDiagnosis* calibration, std::set<std::string> ignored = {}) {
    LintOptions options;
    options.calibration = calibration;
    options.ignoredRules = std::move(ignored);
    std::vector<Finding> out;
    for (const Finding& f : lint(model.graph(), plan, options).findings)
        if (f.ruleId == rule) out.push_back(f);
    return out;
}

// The trap of ultralytics#1695: the scores' Q/DQ carries the box scale; without any calibration.
TEST(BoundedRangeCodesRuleTest, SigmoidScoresUnderTheBoxScaleAreAnError) {
    const auto model = detector(kBoxScale, kBoxScale);
    const auto f = test::findingsOf(*model, kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "scores_q");
    EXPECT_EQ(f[0].tensor, "scores");
    EXPECT_NE(f[0].message.find("every value of 'scores' (bounded to [0, 1] by Sigmoid 'score_sigmoid') rounds to 0 "
                                "at scale 5.04 of QuantizeLinear 'scores_q'"),
              std::string::npos)
        << f[0].message;
    EXPECT_NE(f[0].fix.find("keep Concat 'output_concat' in FP16"), std::string::npos) << f[0].fix;
    // Both inputs carry one scale, so trt-shared-scale-range sees no difference: this rule is the only one.
    EXPECT_TRUE(test::findingsOf(*model, "trt-shared-scale-range").empty());
}

TEST(BoundedRangeCodesRuleTest, ScoresWithTheirOwnScaleAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*detector(1.0f / 127.0f, 0.0f), kRule).empty());
}

// The scores keep their own scale, but the Concat's output is quantized with the box scale, which TensorRT moves
// onto the Concat's inputs: reported once, on the Concat, by this rule rather than by trt-shared-scale-range.
TEST(BoundedRangeCodesRuleTest, AConcatOutputScaleReachesItsBoundedInputs) {
    const auto model = detector(1.0f / 127.0f, kBoxScale);
    const auto f = test::findingsOf(*model, kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "output_concat");
    EXPECT_NE(f[0].message.find("rounds to 0 at scale 5.04, the scale of QuantizeLinear 'out_q' after Concat "
                                "'output_concat'"),
              std::string::npos)
        << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, "trt-shared-scale-range").empty());
    // Ignoring this rule gives trt-shared-scale-range its say again.
    const PrecisionPlan plan(model->graph(), Precision::Int8);
    const auto shared = findingsOf(*model, "trt-shared-scale-range", plan, nullptr, {kRule});
    ASSERT_EQ(shared.size(), 1u);
    EXPECT_NE(shared[0].message.find("input 'scores_dq'"), std::string::npos) << shared[0].message;
}

// A Concat inside a Concat, reshaped before the QuantizeLinear: the scale still reaches the scores (each Concat is
// expanded once, though the inner one feeds the outer twice).
TEST(BoundedRangeCodesRuleTest, NestedConcatsAndAReshapeCarryTheOutputScale) {
    test::ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("logits", DataType::Float, {1, 3, 8});
    b.initializer("shape", DataType::Int64, {2}, {1, -1});
    b.node("Sigmoid", {"logits"}, {"scores"}, "score_sigmoid");
    b.node("Concat", {"boxes", "scores"}, {"inner"}, "inner_concat").i("axis", 1);
    b.node("Concat", {"inner", "inner", "boxes"}, {"outer"}, "outer_concat").i("axis", 1);
    b.node("Reshape", {"outer", "shape"}, {"flat"}, "reshape");
    const std::string dq = test::addQdq(b, "flat", test::perTensor(kBoxScale));
    b.node("Identity", {dq}, {"y"}, "y");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "inner_concat");
    EXPECT_NE(f[0].message.find("every value of 'scores'"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("QuantizeLinear 'flat_q' after Concat 'inner_concat'"), std::string::npos)
        << f[0].message;
}

// One Q -> DQ on `op`'s output (through Reshape and Transpose) with `scale`; the findings of the rule.
std::vector<Finding> quantizedActivation(const std::string& op, float scale) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.initializer("shape", DataType::Int64, {2}, {2, 4});
    if (op == "Softmax")
        b.node("Softmax", {"x"}, {"a"}, "act").i("axis", 1);
    else
        b.node(op, {"x"}, {"a"}, "act");
    b.node("Reshape", {"a", "shape"}, {"r"}, "reshape");
    b.node("Transpose", {"r"}, {"t"}, "transpose").ints("perm", {1, 0});
    const std::string dq = test::addQdq(b, "t", test::perTensor(scale));
    b.node("Identity", {dq}, {"y"}, "y");
    b.output("y");
    return test::findingsOf(*b.load(), kRule);
}

TEST(BoundedRangeCodesRuleTest, FewCodesAreAWarningAndOneCodeAnError) {
    // Softmax [0, 1] at 0.2: codes 0..5, six of them.
    auto f = quantizedActivation("Softmax", 0.2f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("'t' (bounded to [0, 1] by Softmax 'act') keeps only 6 of 256 codes at scale 0.2"),
              std::string::npos)
        << f[0].message;
    EXPECT_NE(f[0].fix.find("amax 1 gives 0.00787"), std::string::npos) << f[0].fix;
    // Tanh [-1, 1] at 1: codes -1, 0, 1; at 3 every value rounds to 0.
    f = quantizedActivation("Tanh", 1.0f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("keeps only 3 of 256 codes"), std::string::npos) << f[0].message;
    f = quantizedActivation("Tanh", 3.0f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    // A scale from the bound keeps all codes; an unbounded Relu output says nothing whatever the scale.
    EXPECT_TRUE(quantizedActivation("Sigmoid", 1.0f / 127.0f).empty());
    EXPECT_TRUE(quantizedActivation("Relu", 100.0f).empty());
}

TEST(BoundedRangeCodesRuleTest, ClipAndCastFromBoolAreBounded) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    b.initializer("zero", {}, {0.0f});
    b.initializer("six", {}, {6.0f});
    b.node("Clip", {"x", "zero", "six"}, {"relu6"}, "relu6");
    b.node("Greater", {"x", "zero"}, {"mask"}, "greater");
    b.node("Cast", {"mask"}, {"mask_float"}, "cast").i("to", static_cast<int64_t>(DataType::Float));
    const std::string clipped = test::addQdq(b, "relu6", test::perTensor(kBoxScale));
    const std::string mask = test::addQdq(b, "mask_float", test::perTensor(kBoxScale));
    b.node("Add", {clipped, mask}, {"y"}, "add");
    b.output("y");
    const auto f = test::findingsOf(*b.load(), kRule);
    ASSERT_EQ(f.size(), 2u);
    // Relu6 [0, 6] at 5.04: codes 0 and 1.
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].tensor, "mask_float");
    EXPECT_NE(f[0].message.find("(bounded to [0, 1] by Cast 'cast') rounds to 0"), std::string::npos) << f[0].message;
    EXPECT_EQ(f[1].severity, Severity::Warning);
    EXPECT_EQ(f[1].tensor, "relu6");
    EXPECT_NE(f[1].message.find("(bounded to [0, 6] by Clip 'relu6') keeps only 2 of 256 codes"), std::string::npos)
        << f[1].message;
}

// A constant concatenated with activations (a ViT's class token) is no bounded activation: quiet.
TEST(BoundedRangeCodesRuleTest, AConstantUnderAConcatScaleIsQuiet) {
    test::ModelBuilder b;
    b.input("patches", DataType::Float, {1, 4, 8});
    b.initializer("class_token", {1, 1, 8}, test::seededFloats(8, 7, -0.05f, 0.05f));
    b.node("Concat", {"class_token", "patches"}, {"tokens"}, "concat").i("axis", 1);
    const std::string dq = test::addQdq(b, "tokens", test::perTensor(0.04f));
    b.node("Identity", {dq}, {"y"}, "y");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// Per-channel scales are set per channel from the tensor itself: not judged.
TEST(BoundedRangeCodesRuleTest, PerChannelQuantizationIsQuiet) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 2, 4});
    b.node("Sigmoid", {"x"}, {"s"}, "sigmoid");
    const std::string dq = test::addQdq(b, "s", test::perChannel(2, 10.0f, 1));
    b.node("Identity", {dq}, {"y"}, "y");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// A float model: the plan runs the output Concat INT8 (its output feeds an INT8 MatMul). Without a calibration the
// export has no scale: quiet (trt-shared-scale-range asks for the ranges). With one, the export's Concat scale is
// the largest calibrated amax (the boxes' 640): the scores round to 0.
TEST(BoundedRangeCodesRuleTest, ThePlansExportIsJudgedWithTheCalibration) {
    test::ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("logits", DataType::Float, {1, 3, 8});
    b.initializer("w", {8, 2}, test::seededFloats(16));
    b.node("Sigmoid", {"logits"}, {"scores"}, "score_sigmoid");
    b.node("Concat", {"boxes", "scores"}, {"out"}, "output_concat").i("axis", 1);
    b.node("MatMul", {"out", "w"}, {"y"}, "head");
    b.output("y");
    const auto model = b.load();
    const Graph& graph = model->graph();
    const PrecisionPlan allInt8(graph, Precision::Int8);
    EXPECT_TRUE(findingsOf(*model, kRule, allInt8, nullptr).empty());

    CalibrationDiagnosis calibration;
    calibration.calibratedAmax[*graph.findValue("boxes")] = 640.0f;
    calibration.calibratedAmax[*graph.findValue("scores")] = 1.0f;
    calibration.calibratedAmax[*graph.findValue("out")] = 640.0f;
    const auto f = findingsOf(*model, kRule, allInt8, &calibration);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Error);
    EXPECT_EQ(f[0].nodeName, "output_concat");
    EXPECT_NE(f[0].message.find("every value of 'scores' (bounded to [0, 1] by Sigmoid 'score_sigmoid') rounds to 0 "
                                "at scale 5.04, the one scale QuantLens' export gives the inputs of INT8 Concat "
                                "'output_concat' (its largest calibrated amax, 640)"),
              std::string::npos)
        << f[0].message;
    // trt-shared-scale-range would say the same of 'scores' from the measured ranges: it leaves it to this rule.
    EXPECT_TRUE(findingsOf(*model, "trt-shared-scale-range", allInt8, &calibration).empty());
}

}  // namespace
}  // namespace ql
