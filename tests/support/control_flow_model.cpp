#include "tests/support/control_flow_model.h"

#include "tests/support/model_builder.h"

namespace ql::test {

namespace {

onnx::GraphProto loopBody() {
    ModelBuilder body;
    body.input("iteration", DataType::Int64, {});
    body.input("cond_in", DataType::Bool, {});
    body.input("state", DataType::Float, {1, 4});
    body.node("Identity", {"cond_in"}, {"cond_out"}, "keep_going");
    body.node("Add", {"state", "r"}, {"sum"}, "accumulate");
    body.node("Relu", {"sum"}, {"state_out"}, "clamp");
    body.output("cond_out", DataType::Bool, {}, true);
    body.output("state_out", DataType::Float, {1, 4});
    return body.graph();
}

onnx::GraphProto thenBranch() {
    ModelBuilder branch;
    branch.initializer("two", {}, {2.0f});
    branch.initializer("trips", DataType::Int64, {}, {3});
    branch.initializer("always", DataType::Bool, {}, {1});
    branch.node("Mul", {"r", "two"}, {"t"}, "double");
    branch.node("Loop", {"trips", "always", "t"}, {"looped"}, "repeat").graph("body", loopBody());
    branch.output("looped", DataType::Float, {1, 4});
    return branch.graph();
}

onnx::GraphProto elseBranch() {
    ModelBuilder branch;
    branch.node("Neg", {"r"}, {"e"}, "negate");
    branch.output("e", DataType::Float, {1, 4});
    return branch.graph();
}

}  // namespace

std::unique_ptr<Model> nestedControlFlowModel() {
    ModelBuilder b;
    b.input("cond", DataType::Bool, {});
    b.input("x", DataType::Float, {1, 4});
    b.node("Relu", {"x"}, {"r"}, "pre");
    b.node("If", {"cond"}, {"y"}, "branch").graph("then_branch", thenBranch()).graph("else_branch", elseBranch());
    b.output("y", DataType::Float, {1, 4});
    return b.load();
}

void saveRateSwitchModel(const std::string& path) {
    ModelBuilder thenB, elseB;
    thenB.initializer("tw", {6}, seededFloats(6));
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

}  // namespace ql::test
