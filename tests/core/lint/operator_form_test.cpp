// One verdict on ONNX Runtime's operator form: the shipped file's trt-unsupported-op errors (one per operator) and
// their merge into the float import's report.
#include "core/lint/operator_form.h"

#include <gtest/gtest.h>

#include "core/export/qoperator_import.h"
#include "core/quant/default_placement.h"
#include "tests/support/operator_form_model.h"

namespace ql {
namespace {

TEST(OperatorFormLintTest, ShippedFileGetsOneErrorPerOperatorWithTheFix) {
    const auto model = test::operatorFormModel().load();
    const OperatorFormLint shipped = lintOperatorForm(model->graph(), {});
    EXPECT_EQ(shipped.ops, (std::vector<std::string>{"DynamicQuantizeLinear", "ConvInteger"}));
    ASSERT_EQ(shipped.findings.size(), 2u);
    for (const Finding& f : shipped.findings) {
        EXPECT_EQ(f.ruleId, "trt-unsupported-op");
        EXPECT_EQ(f.severity, Severity::Error);
        EXPECT_FALSE(f.causesFallback);
        EXPECT_NE(f.message.find("(2 nodes)"), std::string::npos) << f.message;
        EXPECT_NE(f.fix.find("quantlens-cli quantize MODEL --calib"), std::string::npos) << f.fix;
    }
    EXPECT_EQ(shipped.findings[1].nodeName, "conv1_quant");
    EXPECT_EQ(operatorFormNote(shipped),
              "ONNX Runtime operator form (DynamicQuantizeLinear, ConvInteger): TensorRT cannot parse the file as "
              "shipped; the analysis continues on the float model it was made from");
}

TEST(OperatorFormLintTest, IgnoringTheRuleKeepsTheOpsButNoFindings) {
    const auto model = test::operatorFormModel().load();
    LintOptions options;
    options.ignoredRules = {"trt-unsupported-op"};
    const OperatorFormLint shipped = lintOperatorForm(model->graph(), options);
    EXPECT_EQ(shipped.ops.size(), 2u);
    EXPECT_TRUE(shipped.findings.empty());
}

TEST(OperatorFormLintTest, FloatModelHasNoOperatorForm) {
    const auto model = test::operatorFormModel().load();
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    EXPECT_TRUE(lintOperatorForm(imported->imported.model->graph(), {}).empty());
}

// The float import's report with the shipped errors in front; a finding both have is listed once.
TEST(OperatorFormLintTest, ShippedErrorsGoFirstAndAreNotRepeated) {
    const auto model = test::operatorFormModel().load();
    const OperatorFormLint shipped = lintOperatorForm(model->graph(), {});
    auto imported = importQOperatorModel(*model);
    ASSERT_TRUE(imported) << imported.status().message();
    const Graph& floatGraph = imported->imported.model->graph();
    LintReport report = lint(floatGraph, defaultPrecisionPlan(floatGraph));
    const size_t floatFindings = report.findings.size();
    report.findings.insert(report.findings.begin(), shipped.findings.front());  // as if the import had kept it
    addShippedFindings(report, shipped);
    ASSERT_EQ(report.findings.size(), floatFindings + 2);
    EXPECT_EQ(report.findings[0].opType, "ConvInteger");
    EXPECT_EQ(report.findings[1].opType, "DynamicQuantizeLinear");
    EXPECT_EQ(report.coverage.weightedLayers, 2);
}

}  // namespace
}  // namespace ql
