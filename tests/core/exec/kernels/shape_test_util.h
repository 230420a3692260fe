#pragma once
// Positional shorthand over runNode for the shape / data-movement kernel tests: inputs are named in0,
// in1... and an empty Tensor is an omitted optional input.
#include <functional>
#include <string>
#include <vector>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

struct NodeRun {
    NodeRun(std::string op, std::vector<Tensor> inputs, std::function<void(NodeBuilder&)> attributes = {},
            int64_t opset = 17, std::vector<DataType> outputs = {})
        : op(std::move(op)),
          inputs(std::move(inputs)),
          attributes(std::move(attributes)),
          opset(opset),
          outputs(std::move(outputs)) {}
    std::string op;
    std::vector<Tensor> inputs;
    std::function<void(NodeBuilder&)> attributes;
    int64_t opset;
    std::vector<DataType> outputs;  // one dtype per output; default: one output of input 0's dtype
};

inline Result<std::vector<Tensor>> run(const NodeRun& r) {
    NamedTensors inputs;
    for (size_t i = 0; i < r.inputs.size(); ++i)
        inputs.emplace_back(r.inputs[i].empty() ? std::string() : "in" + std::to_string(i), r.inputs[i]);
    return runNode(NodeSpec(r.op, inputs, r.outputs, r.opset, r.attributes));
}

inline Tensor int64s(const std::vector<int64_t>& values) {
    return int64s({static_cast<int64_t>(values.size())}, values);
}

}  // namespace ql::test
