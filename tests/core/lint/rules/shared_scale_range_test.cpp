// trt-shared-scale-range: a quantized Concat whose inputs' ranges differ by orders of magnitude (YOLO boxes and
// scores under one scale) loses the small input.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-shared-scale-range";

// boxes (pixels) and scores ([0, 1]), each behind its own Q/DQ, concatenated and quantized again: ONNX Runtime's
// QDQ layout of a YOLO output.
std::unique_ptr<Model> boxesAndScores(float boxAmax, float scoreAmax) {
    test::ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("scores", DataType::Float, {1, 3, 8});
    const std::string boxes = test::addQdq(b, "boxes", test::perTensor(boxAmax / 127.0f));
    const std::string scores = test::addQdq(b, "scores", test::perTensor(scoreAmax / 127.0f));
    b.node("Concat", {boxes, scores}, {"out"}, "output_concat").i("axis", 1);
    const std::string out = test::addQdq(b, "out", test::perTensor(boxAmax / 127.0f));
    b.node("Identity", {out}, {"y"}, "y");
    b.output("y");
    return b.load();
}

TEST(SharedScaleRangeRuleTest, ScoresSharingThePixelScaleRoundToZero) {
    const auto f = test::findingsOf(*boxesAndScores(640.0f, 1.0f), kRule);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "output_concat");
    EXPECT_NE(f[0].message.find("'scores"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("keeps 0 of 127 levels"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].fix.find("FP16"), std::string::npos);
}

TEST(SharedScaleRangeRuleTest, ComparableRangesAreQuiet) {
    EXPECT_TRUE(test::findingsOf(*boxesAndScores(4.0f, 1.0f), kRule).empty());
}

// An unquantized Concat in a float model (nothing planned INT8 there) is no shared scale.
TEST(SharedScaleRangeRuleTest, AFloatConcatIsQuiet) {
    test::ModelBuilder b;
    b.input("a", DataType::Float, {1, 2});
    b.input("c", DataType::Float, {1, 2});
    b.node("Concat", {"a", "c"}, {"y"}, "concat").i("axis", 1);
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

// A float model whose plan runs the output Concat in INT8 (every node INT8), no calibration: the ranges are unknown,
// but Sigmoid scores concatenated with unbounded boxes are the YOLO trap.
TEST(SharedScaleRangeRuleTest, ScoresConcatenatedWithUnboundedBoxesInAnInt8PlanAreWarnedWithoutRanges) {
    test::ModelBuilder b;
    b.input("boxes", DataType::Float, {1, 4, 8});
    b.input("logits", DataType::Float, {1, 3, 8});
    b.initializer("stride", {}, {8.0f});
    b.node("Mul", {"boxes", "stride"}, {"pixels"}, "to_pixels");
    b.node("Sigmoid", {"logits"}, {"scores"}, "scores");
    b.node("Concat", {"pixels", "scores"}, {"y"}, "output_concat").i("axis", 1);
    b.output("y");
    const auto model = b.load();
    const PrecisionPlan allInt8(model->graph(), Precision::Int8);
    std::vector<Finding> f;
    for (const Finding& finding : lint(model->graph(), allInt8, {}).findings)
        if (finding.ruleId == kRule) f.push_back(finding);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "output_concat");
    EXPECT_NE(f[0].message.find("Sigmoid scores 'scores' (0 to 1) are concatenated with 'pixels'"), std::string::npos)
        << f[0].message;
    // The default plan keeps that Concat (a graph output) out of INT8: quiet.
    EXPECT_TRUE(test::findingsOf(*model, kRule).empty());
}

}  // namespace
}  // namespace ql
