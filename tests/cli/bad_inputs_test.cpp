// The bad-input corpus (tests/data/bad_inputs/manifest.json, issue 19): every bad or hostile file a user can be
// handed, each read by the CLI command that reads it, must give exit 2 and one line naming the file and the
// problem, and leave no output file behind. Resource bombs (10^12-element headers, zip bombs, 65535x65535 images,
// shapes past memory, JSON 10^5 levels deep) must be refused from their headers, so each case takes milliseconds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/cli/cli_runner.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(QL_TEST_DATA_DIR) + "/bad_inputs/";
const std::string kModel = std::string(QL_SOURCE_DIR) + "/resources/samples/digits_cnn.onnx";

struct BadInput {
    std::string file, expect, output;
    std::vector<std::string> args;
};

void PrintTo(const BadInput& input, std::ostream* os) {
    *os << input.file;
}

nlohmann::json manifest() {
    std::ifstream in(kCorpus + "manifest.json");
    return nlohmann::json::parse(in);
}

std::vector<BadInput> cases() {
    const nlohmann::json all = manifest();  // kept alive: the loop walks a member of it
    std::vector<BadInput> out;
    for (const auto& c : all["cases"])
        out.push_back({c["file"], c["expect"], c["output"], c["args"].get<std::vector<std::string>>()});
    return out;
}

std::string substitute(std::string arg, const BadInput& input, const std::string& out) {
    for (const auto& [key, value] :
         {std::pair<std::string, std::string>{"{model}", kModel}, {"{file}", kCorpus + input.file}, {"{out}", out}}) {
        if (const auto at = arg.find(key); at != std::string::npos) arg.replace(at, key.size(), value);
    }
    return arg;
}

class BadInputTest : public testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsTwoWithOneLineNamingTheFileAndLeavesNoOutput) {
    const BadInput& input = GetParam();
    test::TempDir out;
    std::vector<std::string> args;
    for (const std::string& arg : input.args) args.push_back(substitute(arg, input, out.path()));
    const auto r = test::runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_TRUE(r.err.starts_with("quantlens-cli: ")) << r.err;
    EXPECT_NE(r.err.find(kCorpus + input.file), std::string::npos) << "the file is not named: " << r.err;
    EXPECT_NE(r.err.find(input.expect), std::string::npos) << "expected '" << input.expect << "' in: " << r.err;
    if (!input.output.empty()) {
        EXPECT_FALSE(fs::exists(fs::path(out.path()) / input.output));
    }
    EXPECT_TRUE(fs::is_empty(out.path())) << "a file was left behind";
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInputTest, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<BadInput>& info) {
                             std::string name = info.param.file;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

// A graph 10^5 nodes deep (issue 19): loading, checking, linting and running walk it without recursion. Generated
// here: 2.4 MB is too large to commit.
TEST(DeepGraphTest, AHundredThousandNodeChainLoadsLintsAndRuns) {
    constexpr int kDepth = 100000;
    test::ModelBuilder b(17);
    b.input("x", DataType::Float, {1, 4});
    std::string previous = "x";
    for (int i = 0; i < kDepth; ++i) {
        std::string next = i + 1 == kDepth ? std::string("y") : std::to_string(i);
        b.node("Relu", {previous}, {next});
        previous = std::move(next);
    }
    b.output("y", DataType::Float, {1, 4}, true);
    test::TempDir dir;
    const std::string model = dir.file("deep.onnx");
    b.save(model);

    const auto inspect = test::runCli({"inspect", model});
    EXPECT_EQ(inspect.exitCode, 0) << inspect.err;
    EXPECT_NE(inspect.out.find("Nodes: 100000"), std::string::npos) << inspect.out;
    const auto lint = test::runCli({"lint", model});
    EXPECT_EQ(lint.exitCode, 0) << lint.err;
    const auto run = test::runCli({"bench", model, "--threads", "1", "--iters", "1", "--warmup", "0"});
    EXPECT_EQ(run.exitCode, 0) << run.err;
}

// A body (If/Loop/Scan) whose Q/DQ cannot be read back: the error says where (the body's path and the node), exits
// 2, and lint writes nothing. Before bodies were read back, lint ignored them and said nothing of it.
TEST(BadInputTest, AnUnreadableQdqBodyIsNamedByItsPath) {
    test::TempDir dir;
    test::ModelBuilder thenB, elseB, b;
    thenB.node("QuantizeLinear", {"x", "s"}, {"xq"}, "q");
    thenB.node("DequantizeLinear", {"xq", "s"}, {"xd"}, "dq");
    thenB.node("Relu", {"xd"}, {"t"}, "act");
    thenB.output("t", DataType::Float, {1, 4});
    elseB.node("Identity", {"x"}, {"e"}, "same");
    elseB.output("e", DataType::Float, {1, 4});
    b.input("c", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 4});
    b.input("s", DataType::Float, {});  // a scale that is not a constant
    b.node("If", {"c"}, {"y"}, "branch").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {1, 4});
    const std::string model = dir.file("branch.onnx");
    b.save(model);
    const auto r = test::runCli({"lint", model, "--json"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_NE(r.err.find("branch.onnx: in branch/then_branch/"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("DequantizeLinear 'dq'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the scale is not a constant"), std::string::npos) << r.err;
}

// A file added to the corpus without a command that reads it would test nothing.
TEST(BadInputCorpusTest, EveryFileHasACase) {
    std::set<std::string> listed;
    for (const BadInput& input : cases()) listed.insert(input.file);
    for (const auto& entry : fs::directory_iterator(kCorpus)) {
        const std::string name = entry.path().filename().string();
        if (name != "manifest.json") {
            EXPECT_TRUE(listed.count(name)) << name << " has no case in manifest.json";
        }
    }
}

}  // namespace
}  // namespace ql
