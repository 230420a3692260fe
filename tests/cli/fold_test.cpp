// quantlens-cli fold: an If on a fixed input becomes its branch; bad --fix values exit 2 and write nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

// y = If(sr == 16000) then x + tw else -x: Silero VAD's form, small.
void saveRateSwitch(const std::string& path) {
    ModelBuilder thenB, elseB;
    thenB.initializer("tw", {6}, test::seededFloats(6));
    thenB.node("Add", {"x", "tw"}, {"t"}, "add");
    thenB.output("t", DataType::Float, {6});
    elseB.node("Neg", {"x"}, {"e"}, "neg");
    elseB.output("e", DataType::Float, {6});
    ModelBuilder b;
    b.input("x", DataType::Float, {6});
    b.input("sr", DataType::Int64, {});
    b.initializer("rate", DataType::Int64, {}, {16000});
    b.node("Equal", {"sr", "rate"}, {"c"}, "is16k");
    b.node("If", {"c"}, {"y"}, "If_0").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {6});
    b.save(path);
}

TEST(FoldCliTest, FixingTheRateFoldsTheIfIntoItsBranch) {
    TempDir dir;
    saveRateSwitch(dir.file("vad.onnx"));
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
    saveRateSwitch(dir.file("vad.onnx"));
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
