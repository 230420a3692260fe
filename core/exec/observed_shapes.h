#pragma once
// The shapes the executor sees: one run of the model on seeded inputs, keeping the shape and type of the tensors
// asked for. What fills in where ONNX's shape inference did not reach (layer costs: observed_costs.h; the opset
// converter: core/export/opset_shapes.h).
#include <unordered_map>
#include <vector>

#include "core/common/status.h"
#include "core/exec/random_inputs.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

struct ObservedTensor {
    Shape shape;
    DataType dtype = DataType::Undefined;
};
using ObservedTensors = std::unordered_map<ValueId, ObservedTensor>;

// One run on seeded inputs of the declared input shapes, each open input dim at `openDim` (times its size in `known`,
// randomInputs), recording the values `wanted` flags (one flag per value; asking for few keeps the run's fused groups
// fused).
Result<ObservedTensors> observeTensors(const Graph& graph, const std::vector<bool>& wanted, int64_t openDim = 1,
                                       int threads = 1, const KnownInputShapes& known = {});

// Some graph input has a dimension that is not a fixed number (a symbol or nothing).
bool hasOpenInputDims(const Graph& graph);

}  // namespace ql
