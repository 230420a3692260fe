// The rule table: the ids of the CLI contract are all there, once, each fully described.
#include "core/lint/rule_registry.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

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
                           "calib-few-samples",
                           "calib-outlier-channels"})
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

// The "name.md" / "docs/name.md" tokens of `text`. (A hand scan: std::regex trips GCC 12's maybe-uninitialized
// warning in the -O1 sanitizer builds.)
std::vector<std::string> markdownFilesNamedIn(const std::string& text) {
    const auto isPathChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_./-", c);
    };
    std::vector<std::string> files;
    for (size_t at = text.find(".md"); at != std::string::npos; at = text.find(".md", at + 3)) {
        const size_t end = at + 3;
        if (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) continue;  // ".mdx"
        size_t begin = at;
        while (begin > 0 && isPathChar(text[begin - 1])) --begin;
        if (begin < at) files.push_back(text.substr(begin, end - begin));
    }
    return files;
}

// A rule's source is shown to users (Help > TensorRT Lint Rules, docs/lint-rules.md), so it may name only what a
// user can open: a public document, issue or file of another project, or a file of this repository. The research
// notes the rules were written from are not in the repository; a source cites what those notes quote instead.
TEST(RuleRegistryTest, MarkdownFilesAreFoundInASource) {
    EXPECT_EQ(markdownFilesNamedIn("onnx-tensorrt docs/operators.md headers; TRT11.md §3; a.mdx; README.md"),
              (std::vector<std::string>{"docs/operators.md", "TRT11.md", "README.md"}));
}

TEST(RuleRegistryTest, SourcesNameNoMarkdownFileOutsideTheRepository) {
    const std::filesystem::path root = QL_SOURCE_DIR;
    // Files of other projects that sources name with their project (onnx-tensorrt docs/operators.md, ...).
    const std::set<std::string> external = {"docs/operators.md", "operators.md", "add_custom_qdq_cases.md",
                                            "Guidance_of_QAT_performance_optimization.md"};
    for (const auto& rule : lintRules()) {
        const std::string source(rule->info().source);
        for (const char* note : {"TRT-INT8-RULES.md", "TRT11.md", "TRT-ONNX-OPS.md"})
            EXPECT_TRUE(source.find(note) == std::string::npos) << rule->info().id << " cites " << note;
        for (const std::string& file : markdownFilesNamedIn(source)) {
            EXPECT_TRUE(external.contains(file) || std::filesystem::exists(root / file) ||
                        std::filesystem::exists(root / "docs" / file))
                << rule->info().id << " cites " << file << ", which is not in the repository";
        }
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
