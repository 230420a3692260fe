// quantlens-cli inspect: output, JSON keys and exit codes on good and bad files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"
#include "tests/support/runtime_shape_model.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::TempDir;

ModelBuilder smallCnn() {
    ModelBuilder b;
    b.proto().set_producer_version("1.2.3");
    b.input("image", DataType::Float, {-1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3}, test::seededFloats(108));
    b.initializer("b", {4}, test::seededFloats(4));
    b.initializer("shape", DataType::Int64, {2}, {-1, 256});
    b.initializer("fc_w", {256, 10}, test::seededFloats(2560));
    b.node("Conv", {"image", "w", "b"}, {"c"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Reshape", {"r", "shape"}, {"flat"}, "reshape");
    b.node("MatMul", {"flat", "fc_w"}, {"logits"}, "fc");
    b.output("logits", DataType::Float, {-1, 10});
    return b;
}

// Weights in Constant nodes and inside If bodies are counted apart from the initializers (the walk-through read
// "Parameters: 0" for PP-OCR, whose 4.7 MB of weights are Constant nodes, and for Silero VAD, whose are in bodies).
TEST(InspectCliTest, CountsWeightsInConstantNodesAndSubgraphBodies) {
    test::ModelBuilder thenB, elseB;
    thenB.initializer("tw", {6}, test::seededFloats(6));
    thenB.node("Add", {"x", "tw"}, {"t"});
    thenB.output("t", DataType::Float, {6});
    elseB.node("Neg", {"x"}, {"e"});
    elseB.output("e", DataType::Float, {6});
    test::ModelBuilder b;
    b.input("x", DataType::Float, {6});
    b.input("cond", DataType::Bool, {});
    b.node("Constant", {}, {"k"})
        .tensor("value", test::makeTensor("k", DataType::Float, {2, 5}, std::vector<double>(10, 0.5)));
    b.node("If", {"cond"}, {"y"}).graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {6});
    b.output("k", DataType::Float, {2, 5});
    TempDir dir;
    b.save(dir.file("m.onnx"));
    const auto r = test::runCli({"inspect", dir.file("m.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["parameters"]["count"], 0);
    EXPECT_EQ(j["parameters"]["constant_count"], 10 + 6);
    EXPECT_EQ(j["parameters"]["constant_bytes"], (10 + 6) * 4);
    const auto text = test::runCli({"inspect", dir.file("m.onnx")});
    EXPECT_NE(text.out.find("in Constant nodes and subgraph bodies: 16 (64 B)"), std::string::npos) << text.out;
}

// Shapes inference cannot reach (a Reshape to a computed shape) on a static model: MACs from the shapes a run sees.
TEST(InspectCliTest, MacsOfShapesOnlyARunSeesAreExact) {
    TempDir dir;
    test::runtimeShapeModel().save(dir.file("m.onnx"));
    const auto r = test::runCli({"inspect", dir.file("m.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["macs"], test::kRuntimeShapeConv1Macs + test::kRuntimeShapeConv2Macs);
    EXPECT_EQ(j["macs_approximate"], false);
}

TEST(InspectCliTest, JsonHasTheContractKeysAndRightCounts) {
    TempDir dir;
    smallCnn().save(dir.file("cnn.onnx"));
    const auto r = test::runCli({"inspect", dir.file("cnn.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"nodes", "op_counts", "inputs", "outputs", "parameters", "macs", "qdq_pairs", "diagnostics",
                            "opsets", "ir_version", "producer"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["nodes"], 4);
    EXPECT_EQ(j["op_counts"]["Conv"], 1);
    EXPECT_EQ(j["op_counts"]["MatMul"], 1);
    EXPECT_EQ(j["parameters"]["count"], 108 + 4 + 2560);
    EXPECT_EQ(j["parameters"]["bytes"], (108 + 4 + 2560) * 4);
    EXPECT_EQ(j["parameters"]["int64_count"], 2);
    EXPECT_EQ(j["parameters"]["by_dtype"]["INT64"]["bytes"], 16);
    EXPECT_EQ(j["inputs"][0]["name"], "image");
    EXPECT_EQ(j["inputs"][0]["shape"], "[N,3,8,8]");
    EXPECT_EQ(j["outputs"][0]["dtype"], "FLOAT");
    EXPECT_EQ(j["macs"], 4 * 8 * 8 * 27 + 256 * 10);
    EXPECT_EQ(j["producer"]["version"], "1.2.3");
    EXPECT_EQ(j["opsets"]["ai.onnx"], 13);
    EXPECT_TRUE(j["qdq_pairs"].empty());
    EXPECT_TRUE(j["diagnostics"].empty());
}

TEST(InspectCliTest, TextOutputListsOpsParametersAndMacs) {
    TempDir dir;
    smallCnn().save(dir.file("cnn.onnx"));
    const auto r = test::runCli({"inspect", dir.file("cnn.onnx")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("Nodes: 4"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Parameters: 2,672"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("INT64: 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("MACs:"), std::string::npos);
    EXPECT_NE(r.out.find("image  FLOAT [N,3,8,8]"), std::string::npos) << r.out;
}

TEST(InspectCliTest, DiagnosticsAppearButExitIsZero) {
    TempDir dir;
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "relu").i("bogus", 1);
    b.output("y", DataType::Float, {1, 4});
    b.save(dir.file("odd.onnx"));
    const auto r = test::runCli({"inspect", dir.file("odd.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j["diagnostics"].empty());
    EXPECT_EQ(j["diagnostics"][0]["source"], "checker");
    EXPECT_NE(j["diagnostics"][0]["message"].get<std::string>().find("bogus"), std::string::npos);
}

TEST(InspectCliTest, NamesThatAreNotUtf8StillGiveValidJson) {
    // Found by the loader fuzzer: protobuf 2 strings may hold any bytes.
    TempDir dir;
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"y"}, "bad\xff\xfename");
    b.output("y", DataType::Float, {1, 4});
    b.save(dir.file("latin1.onnx"));
    const auto r = test::runCli({"inspect", dir.file("latin1.onnx"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    EXPECT_EQ(j["nodes"], 1);
}

TEST(InspectCliTest, VersionFlag) {
    const auto r = test::runCli({"--version"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("quantlens-cli"), std::string::npos);
}

struct BadFile {
    const char* name;
    std::string content;
    const char* expected;  // a word the one-line error must contain
};

class InspectBadInputTest : public ::testing::TestWithParam<int> {};

std::vector<BadFile> badFiles() {
    const std::string good = smallCnn().bytes();
    ModelBuilder cycle;
    cycle.input("x", DataType::Float, {1});
    cycle.node("Add", {"x", "b"}, {"a"}, "first");
    cycle.node("Relu", {"a"}, {"b"}, "second");
    cycle.output("a");
    ModelBuilder undefined;
    undefined.input("x", DataType::Float, {1});
    undefined.node("Add", {"x", "nowhere"}, {"y"}, "adder");
    undefined.output("y");
    std::string random;
    for (int i = 0; i < 1000; ++i) random.push_back(static_cast<char>((i * 7919 + 13) % 256));
    return {
        {"empty.onnx", "", "empty"},
        {"truncated.onnx", good.substr(0, good.size() - 100), "truncated"},
        {"random.onnx", random, "not a readable ONNX model"},
        {"cycle.onnx", cycle.bytes(), "cycle"},
        {"undefined.onnx", undefined.bytes(), "'nowhere'"},
    };
}

TEST_P(InspectBadInputTest, ExitsTwoWithOneLineNamingTheFile) {
    const BadFile bad = badFiles()[static_cast<size_t>(GetParam())];
    TempDir dir;
    test::writeFile(dir.file(bad.name), bad.content);
    const auto r = test::runCli({"inspect", dir.file(bad.name)});
    EXPECT_EQ(r.exitCode, 2) << bad.name << ": " << r.out << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(bad.name), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(bad.expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

INSTANTIATE_TEST_SUITE_P(BadFiles, InspectBadInputTest, ::testing::Range(0, 5));

TEST(InspectCliTest, MissingFileExitsTwo) {
    const auto r = test::runCli({"inspect", "/no/such/model.onnx"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("/no/such/model.onnx"), std::string::npos);
}

TEST(InspectCliTest, BadUsageExitsTwo) {
    EXPECT_EQ(test::runCli({"inspect"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"inspect", "a.onnx", "--no-such-flag"}).exitCode, 2);
    EXPECT_EQ(test::runCli({"no-such-command"}).exitCode, 2);
    EXPECT_EQ(test::runCli({}).exitCode, 2);
}

}  // namespace
}  // namespace ql
