#include "tests/ui/graph/graph_test_models.h"

#include "tests/support/model_builder.h"

namespace ql::test {

namespace {

// Shape inference and the checker are not what these tests are about; skipping them keeps 5,000 nodes fast.
LoadOptions fastLoad() {
    LoadOptions options;
    options.runChecker = false;
    options.inferShapes = false;
    return options;
}

std::string tensor(int i) {
    return "t_" + std::to_string(i);
}

}  // namespace

std::unique_ptr<Model> quantizedConvModel() {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    b.initializer("x_scale", DataType::Float, {}, {0.05});
    b.initializer("x_zero", DataType::Int8, {}, {0});
    b.initializer("w_q", DataType::Int8, {4, 3, 3, 3}, std::vector<double>(108, 3.0));
    b.initializer("w_scale", DataType::Float, {}, {0.01});
    b.initializer("w_zero", DataType::Int8, {}, {0});
    b.node("QuantizeLinear", {"x", "x_scale", "x_zero"}, {"x_q"}, "x_quantize");
    b.node("DequantizeLinear", {"x_q", "x_scale", "x_zero"}, {"x_dq"}, "x_dequantize");
    b.node("DequantizeLinear", {"w_q", "w_scale", "w_zero"}, {"w"}, "w_dequantize");
    b.node("Conv", {"x_dq", "w"}, {"conv_out"}, "conv").ints("pads", {1, 1, 1, 1});
    b.node("Relu", {"conv_out"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

std::unique_ptr<Model> chainModel(int count) {
    ModelBuilder b;
    b.input(tensor(0), DataType::Float, {1, 16});
    for (int i = 0; i < count; ++i) b.node("Relu", {tensor(i)}, {tensor(i + 1)}, "node_" + std::to_string(i));
    b.output(tensor(count));
    return b.load(fastLoad());
}

std::unique_ptr<Model> scopedModel(int count) {
    ModelBuilder b;
    b.input(tensor(0), DataType::Float, {1, 16});
    for (int i = 0; i < count; ++i) {
        const std::string scope = "/stage" + std::to_string(i / 1000) + "/block" + std::to_string(i / 50 % 20) +
                                  "/unit" + std::to_string(i / 5 % 10);
        if (i % 3 == 2)
            b.node("Add", {tensor(i), tensor(i - 1)}, {tensor(i + 1)}, scope + "/Add_" + std::to_string(i));
        else
            b.node("Relu", {tensor(i)}, {tensor(i + 1)}, scope + "/Relu_" + std::to_string(i));
    }
    b.output(tensor(count));
    return b.load(fastLoad());
}

}  // namespace ql::test
