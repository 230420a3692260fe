#pragma once
// What onnxruntime.quantization.quantize_dynamic writes for a small CNN, for the tests of the operator-form verdict
// (core/lint/operator_form.h) in the CLI and the window:
//
//   x [1,3,8,8] -> DynamicQuantizeLinear -> ConvInteger "conv1_quant" (uint8 weights [16,3,3,3]) -> Cast -> Mul
//     (x_scale * w_scale) -> Relu -> DynamicQuantizeLinear -> ConvInteger "conv2_quant" ([16,16,3,3]) -> Cast -> Mul
//     -> y
//
// Its float import is two Convs with a Relu between them; `pooled` adds a MaxPool "pool1" after the Relu, a float op
// of the operator form between two quantized ones.
#include "tests/support/model_builder.h"

namespace ql::test {

ModelBuilder operatorFormModel(bool pooled = false);

}  // namespace ql::test
