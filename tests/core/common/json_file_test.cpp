// One reader for the JSON files other tools wrote: every failure is a Status naming the file, none an exception.
#include "core/common/json_file.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

std::string errorOf(const Result<nlohmann::json>& result) {
    EXPECT_FALSE(result.isOk());
    return result.isOk() ? std::string() : result.status().message();
}

TEST(JsonFile, ReadsAValidFile) {
    TempDir dir;
    test::writeFile(dir.file("a.json"), R"({"format": "x", "values": [1, 2]})");
    auto json = readJsonFile(dir.file("a.json"), "plan");
    ASSERT_TRUE(json.isOk()) << json.status().message();
    EXPECT_EQ((*json)["values"].size(), 2u);
}

TEST(JsonFile, ASyntaxErrorNamesTheFileAndItsLine) {
    const std::string message = errorOf(parseJsonText("{\n  \"a\": 1,\n  \"b\": tru\n}", "plan.json"));
    EXPECT_EQ(message.rfind("plan.json:3: not valid JSON (", 0), 0u) << message;
    EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;
}

TEST(JsonFile, ATruncatedFileSaysSo) {
    const std::string message = errorOf(parseJsonText("{\"a\": [1, 2,", "calib.json"));
    EXPECT_NE(message.find("calib.json: not valid JSON: the file ends before the JSON does"), std::string::npos)
        << message;
}

TEST(JsonFile, ANumberPastDoublesRangeIsAnErrorNotAnException) {
    EXPECT_NE(errorOf(parseJsonText("[5e188477]", "t.json")).find("t.json: not valid JSON"), std::string::npos);
}

TEST(JsonFile, DeepNestingIsRefusedBeforeParsing) {
    EXPECT_NE(errorOf(parseJsonText(std::string(100000, '['), "deep.json")).find("nested deeper"), std::string::npos);
}

TEST(JsonFile, MissingEmptyAndFolderAreErrorsNamingTheFile) {
    TempDir dir;
    const Result<nlohmann::json> missing = readJsonFile(dir.file("none.json"), "plan");
    EXPECT_EQ(missing.status().code(), StatusCode::IoError);
    EXPECT_NE(missing.status().message().find("none.json: no such file"), std::string::npos);
    test::writeFile(dir.file("empty.json"), " \n");
    EXPECT_NE(errorOf(readJsonFile(dir.file("empty.json"), "precision plan"))
                  .find("empty.json: the file is empty; it should hold the precision plan"),
              std::string::npos);
    EXPECT_NE(errorOf(readJsonFile(dir.path(), "plan", "--plan X")).find("--plan X: cannot read the plan"),
              std::string::npos);
}

}  // namespace
}  // namespace ql
