#pragma once
// What the node properties panel shows, as text and numbers: readable attribute values, tensor types, the
// formal names of a node's inputs and outputs (from the ONNX schema), and the summary of a weight tensor.
// No widgets here, so it is tested and reused without a window.
#include <QString>
#include <cstdint>
#include <vector>

#include "core/model/graph.h"

namespace onnx {
class AttributeProto;
}

namespace ql::ui {

// "3", "0.0001", "\"SAME_UPPER\"", "[1, 1, 1, 1]", "tensor FLOAT [2]: [0.5, 1]", "graph 'body' (12 nodes)".
// Lists longer than `maxElements` are cut with "... (N values)".
QString attributeText(const onnx::AttributeProto& attribute, int maxElements = 16);
// "FLOAT [1,3,224,224]"; "?" parts when unknown.
QString tensorTypeText(const TensorType& type);
// The schema's name of input / output `slot` of `node` ("X", "W", "B"; "inputs[2]" for the third of a variadic
// list); empty when the op has no schema for the model's opset.
QString formalInputName(const Graph& graph, const Node& node, size_t slot);
QString formalOutputName(const Graph& graph, const Node& node, size_t slot);

// Statistics of a constant tensor (initializer or Constant output), with a histogram of its values.
struct WeightSummary {
    ValueId value = kNoId;
    QString name;
    DataType dtype = DataType::Undefined;
    QString shape;
    int64_t count = 0;
    double min = 0, max = 0, mean = 0, std = 0;
    int64_t nonFinite = 0;  // NaN / inf elements, left out of the statistics
    double binLow = 0, binWidth = 0;
    std::vector<int64_t> bins;  // counts of the finite values, equal-width bins from binLow
    QString error;              // why there are no values (not numeric, unreadable data)
};

WeightSummary summarizeWeight(const Graph& graph, ValueId value, int binCount = 64);
// The constant inputs of `node` (weights, biases, shape operands), in input order.
std::vector<ValueId> constantInputs(const Graph& graph, const Node& node);

}  // namespace ql::ui
