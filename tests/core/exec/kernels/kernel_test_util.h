#pragma once
// Running one-node models in kernel tests.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/exec/executor.h"
#include "tests/support/model_builder.h"

namespace ql::test {

// Loads the model `b` describes, runs it once on `inputs` and returns its outputs (owned copies).
Result<std::vector<Tensor>> runModel(const ModelBuilder& b, const NamedTensors& inputs, int threads = 1);

// A one-node model: graph inputs named after `inputs` (an empty name is an omitted optional input), outputs
// y0, y1... of `outputTypes` (default: the first input's type).
struct NodeSpec {
    NodeSpec(std::string op, NamedTensors inputs, std::vector<DataType> outputTypes = {}, int64_t opset = 17,
             std::function<void(NodeBuilder&)> attributes = {})
        : op(std::move(op)),
          inputs(std::move(inputs)),
          outputTypes(std::move(outputTypes)),
          opset(opset),
          attributes(std::move(attributes)) {}
    std::string op;
    NamedTensors inputs;
    std::vector<DataType> outputTypes;
    int64_t opset = 17;
    std::function<void(NodeBuilder&)> attributes;
};
Result<std::vector<Tensor>> runNode(const NodeSpec& spec, int threads = 1);
// Shorthand for one output: the node's first output, or the failure.
Result<Tensor> runOne(const NodeSpec& spec);

template <typename T>
Tensor makeTensor(DataType dtype, Shape shape, const std::vector<T>& values) {
    return Tensor::fromVector(dtype, std::move(shape), values);
}
inline Tensor floats(Shape shape, const std::vector<float>& values) {
    return Tensor::fromVector(DataType::Float, std::move(shape), values);
}
inline Tensor bools(Shape shape, const std::vector<uint8_t>& values) {
    return Tensor::fromVector(DataType::Bool, std::move(shape), values);
}
inline Tensor int64s(Shape shape, const std::vector<int64_t>& values) {
    return Tensor::fromVector(DataType::Int64, std::move(shape), values);
}
template <typename T>
std::vector<T> valuesOf(const Tensor& t) {
    const T* p = t.data<T>();
    return std::vector<T>(p, p + t.elementCount());
}

// Expects every element of `actual` (any numeric dtype) within `tolerance` (absolute plus relative) of `expected`.
void expectNear(const Tensor& actual, const std::vector<float>& expected, float tolerance = 1e-5f);

}  // namespace ql::test
