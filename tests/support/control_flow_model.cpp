#include "tests/support/control_flow_model.h"

#include <cmath>

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

// A 3x3 Conv of 8 channels "name" reading `x`, its weights (scaled to the fan-in) inside `graph`.
void conv(ModelBuilder& graph, const std::string& x, const std::string& name, int64_t cin, uint32_t seed) {
    const float a = 1.5f / std::sqrt(static_cast<float>(cin * 9));
    graph.initializer(name + ".w", {8, cin, 3, 3}, seededFloats(static_cast<size_t>(8 * cin * 9), seed, -a, a));
    graph.initializer(name + ".b", {8}, seededFloats(8, seed + 1, -0.1f, 0.1f));
    graph.node("Conv", {x, name + ".w", name + ".b"}, {name}, name).ints("pads", {1, 1, 1, 1});
}

onnx::GraphProto convThen() {
    ModelBuilder branch;
    conv(branch, "s", "t1", 8, 21);
    branch.node("Relu", {"t1"}, {"t1.relu"}, "t1.relu");
    conv(branch, "t1.relu", "t2", 8, 23);
    branch.output("t2", DataType::Float, {1, 8, 8, 8});
    return branch.graph();
}

onnx::GraphProto convElse() {
    ModelBuilder branch;
    conv(branch, "s", "e1", 8, 25);
    branch.node("Add", {"e1", "s"}, {"e.add"}, "e.add");
    branch.output("e.add", DataType::Float, {1, 8, 8, 8});
    return branch.graph();
}

onnx::GraphProto convLoopBody() {
    ModelBuilder body;
    body.input("i", DataType::Int64, {});
    body.input("go", DataType::Bool, {});
    body.input("state", DataType::Float, {1, 8, 8, 8});
    body.node("Identity", {"go"}, {"go.out"}, "l.go");
    conv(body, "state", "l1", 8, 27);
    body.node("Relu", {"l1"}, {"l1.relu"}, "l1.relu");
    body.node("Add", {"l1.relu", "s"}, {"l.add"}, "l.add");
    body.output("go.out", DataType::Bool, {}, true);
    body.output("l.add", DataType::Float, {1, 8, 8, 8});
    return body.graph();
}

}  // namespace

std::unique_ptr<Model> convBranchesModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 4, 8, 8});
    conv(b, "x", "stem", 4, 19);
    b.node("Relu", {"stem"}, {"s"}, "stem.relu");
    b.node("ReduceMean", {"s"}, {"m"}, "mean").i("keepdims", 0);
    b.initializer("half", {}, {0.5f});
    b.node("Greater", {"m", "half"}, {"c"}, "gate");
    b.node("If", {"c"}, {"routed"}, "route").graph("then_branch", convThen()).graph("else_branch", convElse());
    b.initializer("trips", DataType::Int64, {}, {2});
    b.initializer("always", DataType::Bool, {}, {1});
    b.node("Loop", {"trips", "always", "routed"}, {"refined"}, "refine").graph("body", convLoopBody());
    conv(b, "refined", "head", 8, 29);
    b.output("head", DataType::Float, {1, 8, 8, 8});
    return b.load();
}

std::unique_ptr<Model> outerWeightBranchesModel() {
    ModelBuilder thenB, elseB, b;
    thenB.node("Conv", {"r", "w", "w.b"}, {"a"}, "a").ints("pads", {1, 1, 1, 1});
    thenB.node("Relu", {"a"}, {"a.relu"}, "a.relu");
    thenB.output("a.relu", DataType::Float, {1, 8, 8, 8});
    elseB.node("Conv", {"r", "w", "w.b"}, {"b"}, "b").ints("pads", {1, 1, 1, 1});
    elseB.node("Add", {"b", "r2"}, {"b.add"}, "b.add");
    elseB.output("b.add", DataType::Float, {1, 8, 8, 8});
    b.input("x", DataType::Float, {1, 4, 8, 8});
    const float a = 1.5f / 6.0f;
    b.initializer("w", {8, 4, 3, 3}, seededFloats(288, 31, -a, a));
    b.initializer("w.b", {8}, seededFloats(8, 32, -0.1f, 0.1f));
    b.initializer("half", {}, {0.5f});
    b.node("Relu", {"x"}, {"r"}, "pre");
    conv(b, "r", "side", 4, 33);
    b.node("Relu", {"side"}, {"r2"}, "side.relu");
    b.node("ReduceMean", {"r"}, {"m"}, "mean").i("keepdims", 0);
    b.node("Greater", {"m", "half"}, {"c"}, "gate");
    b.node("If", {"c"}, {"y"}, "pick").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {1, 8, 8, 8});
    return b.load();
}

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
