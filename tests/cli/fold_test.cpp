// quantlens-cli fold: an If on a fixed input becomes its branch; bad --fix values exit 2 and write nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/control_flow_model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::TempDir;

TEST(FoldCliTest, FixingTheRateFoldsTheIfIntoItsBranch) {
    TempDir dir;
    test::saveRateSwitchModel(dir.file("vad.onnx"));
    const auto r =
        test::runCli({"fold", dir.file("vad.onnx"), "--fix", "sr=16000", "-o", dir.file("16k.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["folded_ifs"], nlohmann::json::array({"If_0 (then_branch)"}));
    EXPECT_EQ(j["nodes_before"], 2);
    EXPECT_EQ(j["nodes_after"], 1);  // the branch's Add
    const auto inspect = test::runCli({"inspect", dir.file("16k.onnx"), "--json"});
    ASSERT_EQ(inspect.exitCode, 0) << inspect.err;
    EXPECT_EQ(nlohmann::json::parse(inspect.out)["inputs"].size(), 1u);  // sr is a constant now
}

TEST(FoldCliTest, ABadValueExitsTwoNamingTheInputAndWritesNothing) {
    TempDir dir;
    test::saveRateSwitchModel(dir.file("vad.onnx"));
    for (const std::string fix : {"rate=16000", "sr=fast", "sr"}) {
        const auto r = test::runCli({"fold", dir.file("vad.onnx"), "--fix", fix, "-o", dir.file("out.onnx")});
        EXPECT_EQ(r.exitCode, 2) << fix;
        EXPECT_FALSE(std::filesystem::exists(dir.file("out.onnx"))) << fix;
    }
    const auto unknown =
        test::runCli({"fold", dir.file("vad.onnx"), "--fix", "rate=16000", "-o", dir.file("out.onnx")});
    EXPECT_NE(unknown.err.find("rate: not an input of vad.onnx (its inputs: x, sr)"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace ql
