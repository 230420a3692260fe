#pragma once
// A model whose shapes ONNX shape inference cannot reach while they are static at run time (issue 27, item 13):
//
//   x [1,3,8,8] (or [N,3,8,8]) -> Conv "conv1" (8x3x3x3, pads 1) -> c1 [1,8,8,8] -> Reshape "reshape" to
//     Abs(Shape(c1)) (a computed shape: inference gives [?,?,?,?]) -> Conv "conv2" (16x8x3x3, pads 1) -> y [1,16,8,8]
//
// MACs: conv1 8*8*8 * 27 = 13,824; conv2 16*8*8 * 72 = 73,728.
#include "tests/support/model_builder.h"

namespace ql::test {

inline constexpr int64_t kRuntimeShapeConv1Macs = 8 * 8 * 8 * 27;
inline constexpr int64_t kRuntimeShapeConv2Macs = 16 * 8 * 8 * 72;

// `symbolicBatch`: the input's batch is the symbol "N".
ModelBuilder runtimeShapeModel(bool symbolicBatch = false);

}  // namespace ql::test
