#include "tests/support/latency_island_model.h"

#include <string>

#include "tests/support/model_builder.h"

namespace ql::test {

namespace {

// `name` (a conv, `kernel` x `kernel`, same padding) and its Relu "<name>_relu": `in` -> `name`_out.
void convRelu(ModelBuilder& b, const std::string& name, const std::string& in, int64_t cin, int64_t cout,
              int64_t kernel) {
    b.initializer(name + ".w", {cout, cin, kernel, kernel},
                  seededFloats(static_cast<size_t>(cout * cin * kernel * kernel)));
    b.initializer(name + ".b", {cout}, seededFloats(static_cast<size_t>(cout)));
    const int64_t pad = kernel / 2;
    b.node("Conv", {in, name + ".w", name + ".b"}, {name + "_conv"}, name).ints("pads", {pad, pad, pad, pad});
    b.node("Relu", {name + "_conv"}, {name + "_out"}, name + "_relu");
}

}  // namespace

std::unique_ptr<Model> latencyIslandModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 16, 56, 56});
    convRelu(b, "before", "x", 16, 16, 3);
    convRelu(b, "small", "before_out", 16, 16, 1);
    convRelu(b, "widen", "small_out", 16, 256, 3);
    convRelu(b, "big", "widen_out", 256, 256, 3);
    convRelu(b, "after", "big_out", 256, 256, 3);
    b.output("after_out");
    return b.load();
}

PrecisionPlan islandsPlan(const Graph& graph) {
    PrecisionPlan plan(graph, Precision::Fp16);
    for (const char* name : {"small", "small_relu", "big", "big_relu"})
        plan.setRequested(*graph.findNode(name), Precision::Int8);
    return plan;
}

}  // namespace ql::test
