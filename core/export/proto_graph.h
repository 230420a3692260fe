#pragma once
// Small helpers over an editable onnx::GraphProto, shared by the export passes (which rewrite a copy of
// the model's proto rather than the read-only ql::Graph view).
#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "core/common/status.h"

namespace ql {

bool isGraphOutput(const onnx::GraphProto& graph, const std::string& name);

// A float initializer's values; an error naming it when it is not FLOAT or cannot be read.
Result<std::vector<float>> readFloatInitializer(const onnx::TensorProto& tensor);
onnx::TensorProto makeFloatTensor(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values);

// Names not used by any value of the graph: the graph's names are collected once (linear), and every name
// made is reserved. Whole passes keep one index like this instead of searching the graph per lookup.
class UniqueNames {
public:
    explicit UniqueNames(const onnx::GraphProto& graph);
    std::string make(const std::string& base);

private:
    std::unordered_set<std::string> mUsed;
};
// Drops initializers and value_info entries no node or graph output refers to any more (one pass).
void removeUnusedInitializers(onnx::GraphProto& graph);

}  // namespace ql
