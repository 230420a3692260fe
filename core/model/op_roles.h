#pragma once
// What an operator does to the values it passes on, for the code that walks producer chains (default placement,
// Q/DQ export, lint rules, carried models). One list per meaning, so the walks agree on what "moves data" is.
#include <string_view>

#include "core/model/graph.h"

namespace ql {

// The node is of the default ONNX domain ("" or "ai.onnx").
bool isDefaultDomain(const Node& node);

// Rearranges, selects or copies values without changing them: a tensor quantized before it is quantized the same
// way after it (Reshape, Transpose, Flatten, Squeeze, Unsqueeze, Identity, Slice, Split, Concat, Gather, Expand,
// Tile, DepthToSpace, SpaceToDepth). Default ONNX domain only.
bool movesData(const Node& node);

// movesData, plus the ops whose every output value is one of their input values or 0 (Relu, MaxPool,
// GlobalMaxPool): an INT8 tensor stays on its grid, so TensorRT runs them in INT8 between a DequantizeLinear and a
// QuantizeLinear, and a float16 value stays exactly float16.
bool keepsValues(const Node& node);

// Ops constant folding keeps as nodes whatever their inputs: Q/DQ (they carry the quantization), random ops, control
// flow and Constant (a node of its own kind). One list for the export's folding and the realized plan.
bool keptByConstantFolding(std::string_view opType);

// The node that computes `value`, looked for behind data movement (movesData, Concat excepted: it joins several
// values); nullptr for a graph input, an initializer, or a chain longer than `maxDepth`.
const Node* computingProducer(const Graph& graph, ValueId value, int maxDepth = 16);

}  // namespace ql
