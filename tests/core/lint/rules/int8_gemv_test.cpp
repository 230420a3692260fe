// trt-int8-gemv: matrix-vector products are not worth INT8.
#include <gtest/gtest.h>

#include "core/quant/default_placement.h"
#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kRule = "trt-int8-gemv";

std::unique_ptr<Model> matmul(int64_t rows) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {rows, 64});
    b.initializer("w", {64, 32}, test::seededFloats(64 * 32));
    b.node("MatMul", {"x", "w"}, {"y"}, "fc");
    b.output("y");
    return b.load();
}

// The default plan keeps a GEMV in float, as Model Optimizer does: nothing to report.
TEST(Int8GemvRuleTest, TheDefaultPlanKeepsASingleRowMatMulInFloat) {
    EXPECT_TRUE(test::findingsOf(*matmul(1), kRule).empty());
}

TEST(Int8GemvRuleTest, SingleRowMatMulPlannedInt8IsWarned) {
    const auto model = matmul(1);
    PrecisionPlan plan = defaultPrecisionPlan(model->graph());
    plan.setRequested(*model->graph().findNode("fc"), Precision::Int8);
    std::vector<Finding> f;
    for (const Finding& finding : lint(model->graph(), plan).findings)
        if (finding.ruleId == kRule) f.push_back(finding);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("M=1"), std::string::npos) << f[0].message;
}

TEST(Int8GemvRuleTest, MatrixMatrixProductIsFine) {
    EXPECT_TRUE(test::findingsOf(*matmul(4), kRule).empty());
}

// Sequence-first activations [L, 1, E] times a 2-D weight: the weight is shared by all L*1 rows (one GEMM).
TEST(Int8GemvRuleTest, LeadingDimensionsOfASharedWeightAreRows) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {197, 1, 64});
    b.initializer("w", {64, 32}, test::seededFloats(64 * 32));
    b.node("MatMul", {"x", "w"}, {"y"}, "in_proj");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule).empty());
}

}  // namespace
}  // namespace ql
