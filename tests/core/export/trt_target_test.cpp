// --trt and --typing: each version's default typing, and the typings a version cannot build refused.
#include <gtest/gtest.h>

#include "core/export/effective_plan.h"
#include "core/export/export_files.h"

namespace ql {
namespace {

TEST(TrtTargetTest, EachVersionDefaultsToTheTypingItBuildsBest) {
    EXPECT_EQ(trtTargetOption("8.6", "")->typing, TrtTyping::Weak);
    EXPECT_EQ(trtTargetOption("10", "")->typing, TrtTyping::Strong);
    EXPECT_EQ(trtTargetOption("11", "")->typing, TrtTyping::Strong);
    EXPECT_EQ(trtTargetOption("10", "weak")->typing, TrtTyping::Weak);
    EXPECT_EQ(trtTargetOption("11.2", "strong")->version, TrtVersion::Trt11);
}

TEST(TrtTargetTest, RefusesTypingsTheVersionCannotBuild) {
    const auto weak11 = trtTargetOption("11", "weak");
    ASSERT_FALSE(weak11.isOk());
    EXPECT_NE(weak11.status().message().find("only strongly typed"), std::string::npos) << weak11.status().message();
    const auto strong86 = trtTargetOption("8.6", "strong");
    ASSERT_FALSE(strong86.isOk());
    EXPECT_NE(strong86.status().message().find("no strongly typed"), std::string::npos);
    EXPECT_FALSE(trtTargetOption("10", "loose").isOk());
    const auto bad = trtTargetOption("9", "");
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("8.6, 10 or 11"), std::string::npos);
}

TEST(TrtTargetTest, TensorRt11HasNoCalibrationCache) {
    EXPECT_EQ(*trtCacheVersion(TrtVersion::Trt86), 8600);
    EXPECT_EQ(*trtCacheVersion(TrtVersion::Trt10), 100300);
    const auto none = trtCacheVersion(TrtVersion::Trt11);
    ASSERT_FALSE(none.isOk());
    EXPECT_NE(none.status().message().find("removed the calibrators"), std::string::npos);
}

}  // namespace
}  // namespace ql
