#pragma once
// Building the subgraphs of If / Loop / Scan in tests: a body is a ModelBuilder's graph.
#include <onnx/onnx_pb.h>

#include <functional>

#include "tests/support/model_builder.h"

namespace ql::test {

// The graph `fill` builds (inputs, nodes, outputs), named `name`, to give a node as a subgraph attribute.
inline onnx::GraphProto subgraph(const std::string& name, const std::function<void(ModelBuilder&)>& fill,
                                 int64_t opset = 13) {
    ModelBuilder b(opset);
    fill(b);
    onnx::GraphProto graph = b.graph();
    graph.set_name(name);
    return graph;
}

// A scalar-shaped (rank 0) graph input or output of `dtype`.
inline void scalarInput(ModelBuilder& b, const std::string& name, DataType dtype) {
    b.input(name, dtype, {});
}

}  // namespace ql::test
