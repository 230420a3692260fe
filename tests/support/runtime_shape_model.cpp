#include "tests/support/runtime_shape_model.h"

namespace ql::test {

ModelBuilder runtimeShapeModel(bool symbolicBatch) {
    ModelBuilder b;
    b.input("x", DataType::Float, {symbolicBatch ? -1 : 1, 3, 8, 8});
    b.initializer("w1", {8, 3, 3, 3}, seededFloats(8 * 27, 1));
    b.initializer("w2", {16, 8, 3, 3}, seededFloats(16 * 72, 2));
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1").ints("pads", {1, 1, 1, 1});
    b.node("Shape", {"c1"}, {"c1_shape"}, "shape");
    // Abs has no data propagation in ONNX shape inference: the target shape is a computed tensor.
    b.node("Abs", {"c1_shape"}, {"target"}, "abs");
    b.node("Reshape", {"c1", "target"}, {"r"}, "reshape");
    b.node("Conv", {"r", "w2"}, {"y"}, "conv2").ints("pads", {1, 1, 1, 1});
    b.output("y");
    return b;
}

}  // namespace ql::test
