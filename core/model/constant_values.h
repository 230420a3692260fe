#pragma once
// Values that are known without running the model: initializers and Constant node outputs.
#include <optional>
#include <vector>

#include "core/model/graph.h"

namespace ql {

bool isConstant(const Graph& graph, ValueId id);
// The value's elements as float / int64, or nullopt when it is not a readable constant.
std::optional<std::vector<float>> constantFloats(const Graph& graph, ValueId id);
std::optional<std::vector<int64_t>> constantInt64s(const Graph& graph, ValueId id);
// The constant's dtype (initializer or Constant node), Undefined when not a constant.
DataType constantDataType(const Graph& graph, ValueId id);
// The constant's ONNX element type number (onnx::TensorProto_DataType), including the types DataType does not
// name (FLOAT8E4M3FN = 17 ... INT2 = 26); 0 when not a constant.
int32_t constantOnnxType(const Graph& graph, ValueId id);

}  // namespace ql
