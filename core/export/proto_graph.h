#pragma once
// Small helpers over an editable onnx::GraphProto, shared by the export passes (which rewrite a copy of
// the model's proto rather than the read-only ql::Graph view).
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

#include "core/common/status.h"

namespace ql {

onnx::TensorProto* findInitializer(onnx::GraphProto& graph, const std::string& name);
// Initializers that are also graph inputs can be overridden at run time, so they are not constants.
bool isOverridable(const onnx::GraphProto& graph, const std::string& name);
bool isGraphOutput(const onnx::GraphProto& graph, const std::string& name);
// How many node inputs (in this graph and nested subgraphs) and graph outputs read `name`.
int referenceCount(const onnx::GraphProto& graph, const std::string& name);
// The index of the node producing `name`, or -1.
int producerIndex(const onnx::GraphProto& graph, const std::string& name);

// A float initializer's values; an error naming it when it is not FLOAT or cannot be read.
Result<std::vector<float>> readFloatInitializer(const onnx::TensorProto& tensor);
onnx::TensorProto makeFloatTensor(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values);

// A name not used by any value of the graph, based on `base`.
std::string uniqueValueName(const onnx::GraphProto& graph, const std::string& base);
// Drops initializers and value_info entries no node or graph output refers to any more.
void removeUnusedInitializers(onnx::GraphProto& graph);

}  // namespace ql
