// The rule table: the ids of the CLI contract are all there, once, each fully described.
#include "core/lint/rule_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ql {
namespace {

TEST(RuleRegistryTest, ContractRuleIdsArePresent) {
    for (const char* id : {"trt-grouped-conv-int8-alignment",
                           "trt-convtranspose-weight-axis",
                           "trt-qdq-axis-mismatch",
                           "trt-int64-initializer",
                           "trt-instancenorm",
                           "trt-unsupported-op",
                           "trt-residual-add-unquantized-input",
                           "trt-qdq-blocks-bn-fusion",
                           "trt-missing-scale",
                           "trt-qdq-nonsymmetric",
                           "trt-qdq-bias",
                           "trt-qdq-activation-per-channel",
                           "trt-concat-scales",
                           "trt-int8-channel-alignment",
                           "trt-int8-gemv",
                           "trt-softmax-norm-int8",
                           "calib-clipping",
                           "calib-method-gap",
                           "calib-dead-range",
                           "calib-non-finite",
                           "calib-few-samples"})
        EXPECT_NE(findLintRule(id), nullptr) << id;
    EXPECT_EQ(findLintRule("no-such-rule"), nullptr);
}

TEST(RuleRegistryTest, EveryRuleHasAUniqueIdAndIsDescribed) {
    std::set<std::string_view> ids;
    for (const auto& rule : lintRules()) {
        const RuleInfo& info = rule->info();
        EXPECT_TRUE(ids.insert(info.id).second) << "duplicate " << info.id;
        EXPECT_TRUE(info.id.starts_with("trt-") || info.id.starts_with("calib-")) << info.id;
        EXPECT_GT(info.explanation.size(), 100u) << info.id;
        EXPECT_FALSE(info.source.empty()) << info.id;
        EXPECT_NE(info.versions, 0u) << info.id;
    }
}

TEST(RuleRegistryTest, Int64DowncastAppliesOnlyToTrt86) {
    const LintRule* rule = findLintRule("trt-int64-initializer");
    ASSERT_NE(rule, nullptr);
    EXPECT_TRUE(rule->appliesTo(TrtVersion::Trt86));
    EXPECT_FALSE(rule->appliesTo(TrtVersion::Trt10));
    EXPECT_FALSE(rule->appliesTo(TrtVersion::Trt11));
}

TEST(RuleRegistryTest, EveryRuleButTheInt64OneAppliesToTrt11) {
    for (const auto& rule : lintRules())
        EXPECT_EQ(rule->appliesTo(TrtVersion::Trt11), rule->info().id != "trt-int64-initializer") << rule->info().id;
}

TEST(TrtVersionTest, ParsesTheCliSpellings) {
    EXPECT_EQ(parseTrtVersion("8.6"), TrtVersion::Trt86);
    EXPECT_EQ(parseTrtVersion("10"), TrtVersion::Trt10);
    EXPECT_EQ(parseTrtVersion("10.x"), TrtVersion::Trt10);
    EXPECT_EQ(parseTrtVersion("10.8"), TrtVersion::Trt10);
    EXPECT_EQ(parseTrtVersion("11"), TrtVersion::Trt11);
    EXPECT_EQ(parseTrtVersion("11.x"), TrtVersion::Trt11);
    EXPECT_EQ(parseTrtVersion("11.2.1"), TrtVersion::Trt11);
    EXPECT_FALSE(parseTrtVersion("9").has_value());
    EXPECT_FALSE(parseTrtVersion("11.").has_value());
    EXPECT_FALSE(parseTrtVersion("110").has_value());
    EXPECT_FALSE(parseTrtVersion("10.").has_value());
    EXPECT_FALSE(parseTrtVersion("").has_value());
}

}  // namespace
}  // namespace ql
