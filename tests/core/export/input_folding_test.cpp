// Fixing an input and folding the Ifs that follow from it (Silero VAD's If on `sr`): the taken branch's nodes join
// the main graph with their own names prefixed, its constants come along, nested bodies keep reading its values,
// and the folded model computes what the original computed with that input.
#include "core/export/input_folding.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "tests/core/exec/kernels/control_flow_test_util.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {
namespace {

// y = If(sr == 16000) then (x * two, then If(flag) of it + one / it) else -(x * x); the then branch holds an
// initializer and a nested If that reads the branch's own value `t`, the else branch reuses main-graph names.
ModelBuilder vadLike() {
    ModelBuilder b(16);
    b.input("x", DataType::Float, {3});
    b.input("sr", DataType::Int64, {});
    b.input("flag", DataType::Bool, {});
    b.initializer("rate", DataType::Int64, {}, {16000});
    b.node("Equal", {"sr", "rate"}, {"is16k"}, "Equal_0");
    const auto addOne = subgraph(
        "add_one",
        [](ModelBuilder& g) {
            g.initializer("one", {1}, {1.0f});
            g.node("Add", {"t", "one"}, {"u"});
            g.output("u", DataType::Float, {3}, true);
        },
        16);
    const auto pass = subgraph(
        "pass", [](ModelBuilder& g) { g.output("t", DataType::Float, {3}, true); }, 16);
    const auto thenBranch = subgraph(
        "then",
        [&](ModelBuilder& g) {
            g.initializer("two", {1}, {2.0f});
            g.node("Mul", {"x", "two"}, {"t"}, "double");
            g.node("If", {"flag"}, {"v"}, "inner").graph("then_branch", addOne).graph("else_branch", pass);
            g.output("v", DataType::Float, {3}, true);
        },
        16);
    const auto elseBranch = subgraph(
        "else",
        [](ModelBuilder& g) {
            g.node("Mul", {"x", "x"}, {"is16k"}, "Equal_0");  // names the main graph uses: prefixed when inlined
            g.node("Neg", {"is16k"}, {"e"}, "negate");
            g.output("e", DataType::Float, {3}, true);
        },
        16);
    b.node("If", {"is16k"}, {"y"}, "If_0").graph("then_branch", thenBranch).graph("else_branch", elseBranch);
    b.output("y");
    return b;
}

Result<std::vector<Tensor>> runProto(const onnx::ModelProto& proto, const NamedTensors& inputs) {
    const std::string bytes = proto.SerializeAsString();
    QL_ASSIGN_OR_RETURN(auto model, Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), "f"));
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(model->graph()));
    QL_ASSIGN_OR_RETURN(NamedTensors out, executor->run(inputs));
    std::vector<Tensor> tensors;
    for (auto& [name, tensor] : out) tensors.push_back(std::move(tensor));
    return tensors;
}

TEST(InputFoldingTest, TheTakenBranchJoinsTheMainGraphAndComputesTheSame) {
    const ModelBuilder b = vadLike();
    auto model = b.load();
    const Tensor x = floats({3}, {1, -2, 3});
    for (const int64_t sr : {16000, 8000}) {
        auto fixed = parseFixedInputs(*model, "sr=" + std::to_string(sr));
        ASSERT_TRUE(fixed) << fixed.status().message();
        auto folded = foldFixedInputs(*model, *fixed);
        ASSERT_TRUE(folded) << folded.status().message();
        const onnx::GraphProto& graph = folded->model->graph();
        ASSERT_EQ(folded->foldedIfs.size(), 1u);
        EXPECT_EQ(folded->foldedIfs[0], sr == 16000 ? "If_0 (then_branch)" : "If_0 (else_branch)");
        // No If on sr remains, nor the Equal; sr is no longer an input.
        for (const auto& node : graph.node()) EXPECT_NE(node.name(), "If_0");
        for (const auto& node : graph.node()) EXPECT_NE(node.op_type(), "Equal");
        for (const auto& input : graph.input()) EXPECT_NE(input.name(), "sr");
        for (const bool flag : {true, false}) {
            const Tensor f = Tensor::fromVector<uint8_t>(DataType::Bool, {}, {static_cast<uint8_t>(flag)});
            auto original = runProto(model->proto(), {{"x", x}, {"sr", int64s({}, {sr})}, {"flag", f}});
            ASSERT_TRUE(original) << original.status().message();
            auto after = runProto(*folded->model, {{"x", x}, {"flag", f}});  // inputs stay, if unused
            ASSERT_TRUE(after) << after.status().message();
            const auto want = (*original)[0].span<float>(), got = (*after)[0].span<float>();
            EXPECT_EQ(std::vector<float>(got.begin(), got.end()), std::vector<float>(want.begin(), want.end()));
        }
        // The branch's names stay where the main graph does not use them, else get the If's name as a prefix.
        bool found = false;
        for (const auto& node : graph.node()) {
            if (sr == 16000 && node.name() == "double") found = node.input(1) == "two" && node.output(0) == "t";
            if (sr == 8000 && node.name() == "If_0/Equal_0") found = node.output(0) == "If_0/is16k";
        }
        EXPECT_TRUE(found) << sr;
    }
}

TEST(InputFoldingTest, NamesTheInputsThatDecideAnIf) {
    auto model = vadLike().load();
    EXPECT_EQ(inputsDecidingIfs(*model), std::vector<std::string>{"sr"});  // not flag: it decides a nested If only
}

TEST(InputFoldingTest, AnIfTheFixedInputsDoNotDecideStays) {
    const ModelBuilder b = vadLike();
    auto model = b.load();
    auto folded = foldFixedInputs(*model, {{"x", floats({3}, {1, 2, 3})}});
    ASSERT_TRUE(folded) << folded.status().message();
    EXPECT_TRUE(folded->foldedIfs.empty());
    EXPECT_EQ(folded->nodesAfter, folded->nodesBefore);
}

TEST(InputFoldingTest, BadValuesAreErrorsNamingTheInput) {
    auto model = vadLike().load();
    auto unknown = parseFixedInputs(*model, "rate_hz=16000");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.status().message().find("rate_hz: not an input of"), std::string::npos);
    EXPECT_NE(unknown.status().message().find("its inputs: x, sr, flag"), std::string::npos)
        << unknown.status().message();
    auto text = parseFixedInputs(*model, "sr=sixteen");
    ASSERT_FALSE(text);
    EXPECT_NE(text.status().message().find("sr=sixteen: not a number"), std::string::npos);
    auto several = parseFixedInputs(*model, "x=1");
    ASSERT_FALSE(several);
    EXPECT_NE(several.status().message().find("more than one value"), std::string::npos);
    auto wrongType = foldFixedInputs(*model, {{"sr", floats({}, {16000})}});
    ASSERT_FALSE(wrongType);
    EXPECT_NE(wrongType.status().message().find("sr: the value's element type"), std::string::npos);
}

}  // namespace
}  // namespace ql::test
