#include "tests/support/operator_form_model.h"

#include <cmath>

namespace ql::test {

namespace {

// uint8 weight levels around the zero point 128.
std::vector<double> weightLevels(size_t count, uint32_t seed) {
    std::vector<double> levels;
    for (float f : seededFloats(count, seed, 0.0f, 255.999f)) levels.push_back(std::floor(f));
    return levels;
}

// DynamicQuantizeLinear(input) -> ConvInteger -> Cast -> Mul(., x_scale * w_scale) -> output, as ONNX Runtime names it.
void addDynamicConv(ModelBuilder& b, const std::string& name, const std::string& input, const std::string& output,
                    int64_t inChannels, uint32_t seed) {
    const std::string w = name + ".weight_quantized";
    b.initializer(w, DataType::UInt8, {16, inChannels, 3, 3},
                  weightLevels(static_cast<size_t>(16 * inChannels * 9), seed));
    b.initializer(name + ".weight_zero_point", DataType::UInt8, {}, {128});
    b.initializer(name + ".weight_scale", {}, {0.004f});
    b.node("DynamicQuantizeLinear", {input}, {input + "_q", input + "_scale", input + "_zp"},
           input + "_DynamicQuantizeLinear");
    b.node("ConvInteger", {input + "_q", w, input + "_zp", name + ".weight_zero_point"}, {name + "_acc"},
           name + "_quant")
        .ints("pads", {1, 1, 1, 1});
    b.node("Cast", {name + "_acc"}, {name + "_accf"}, name + "_cast").i("to", 1);
    b.node("Mul", {input + "_scale", name + ".weight_scale"}, {name + "_scales"}, name + "_scales_mul");
    b.node("Mul", {name + "_accf", name + "_scales"}, {output}, name + "_output_mul");
}

}  // namespace

ModelBuilder operatorFormModel(bool pooled) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 3, 8, 8});
    addDynamicConv(b, "conv1", "x", "c1", 3, 11);
    b.node("Relu", {"c1"}, {"r1"}, "relu1");
    if (pooled) b.node("MaxPool", {"r1"}, {"p1"}, "pool1").ints("kernel_shape", {2, 2}).ints("strides", {2, 2});
    addDynamicConv(b, "conv2", pooled ? "p1" : "r1", "y", 16, 12);
    b.output("y");
    return b;
}

}  // namespace ql::test
