#pragma once
// Running one com.microsoft QLinear* node (ONNX Runtime's QOperator format) in tests.
#include "tests/core/exec/kernels/integer_test_util.h"

namespace ql::test {

inline Result<Tensor> runContrib(const std::string& op, const NamedTensors& inputs, DataType output,
                                 const std::function<void(NodeBuilder&)>& attrs = {}) {
    ModelBuilder b(13);
    b.opset("com.microsoft", 1);
    std::vector<std::string> names;
    NamedTensors feeds;
    for (const auto& [name, tensor] : inputs) {
        names.push_back(name);
        if (name.empty()) continue;
        b.input(name, tensor.dtype(), tensor.shape());
        feeds.emplace_back(name, tensor);
    }
    NodeBuilder node = b.node(op, names, {"y"}, "q_" + op);
    node.domain("com.microsoft");
    if (attrs) attrs(node);
    b.output("y", output);
    QL_ASSIGN_OR_RETURN(auto outputs, runModel(b, feeds));
    return outputs.at(0);
}

}  // namespace ql::test
