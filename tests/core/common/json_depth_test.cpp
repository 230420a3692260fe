#include "core/common/json_depth.h"

#include <gtest/gtest.h>

namespace ql {
namespace {

std::string nested(size_t levels) {
    return std::string(levels, '[') + std::string(levels, ']');
}

TEST(JsonDepth, AcceptsNestingUpToTheLimit) {
    EXPECT_TRUE(checkJsonDepth(nested(kMaxJsonDepth), "a.json").isOk());
    EXPECT_TRUE(checkJsonDepth(R"({"a": [{"b": [1, 2]}], "c": {}})", "a.json").isOk());
}

TEST(JsonDepth, Refuses100000LevelsNamingTheFile) {
    const Status s = checkJsonDepth(nested(100000), "deep.json");
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.message(),
              "deep.json: JSON nested deeper than 256 levels at byte 256; no QuantLens file nests so deep");
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
    const std::string text = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
    EXPECT_TRUE(checkJsonDepth(text, "a.json").isOk());
}

TEST(JsonDepth, ObjectsCountLikeArrays) {
    std::string text;
    for (size_t i = 0; i <= kMaxJsonDepth; ++i) text += "{\"a\":";
    EXPECT_FALSE(checkJsonDepth(text, "a.json").isOk());
}

}  // namespace
}  // namespace ql
