#pragma once
// Small helpers over an editable onnx::GraphProto, shared by the export passes (which rewrite a copy of
// the model's proto rather than the read-only ql::Graph view).
#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_map>
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
// Constant values by name: initializers and Constant nodes (decoded once). Pointers stay valid while the graph only
// grows (initializers added, never removed).
class ProtoConstants {
public:
    explicit ProtoConstants(const onnx::GraphProto& graph);
    const onnx::TensorProto* find(const std::string& name);

private:
    const onnx::GraphProto& mGraph;
    std::unordered_map<std::string, int> mInitializers;
    std::unordered_map<std::string, int> mConstantNodes;
    std::unordered_map<std::string, onnx::TensorProto> mDecoded;
};

// The graph attribute `attribute` (then_branch, else_branch, body) of the node named `node`; null when there is none.
onnx::AttributeProto* graphAttribute(onnx::GraphProto& graph, const std::string& node, const std::string& attribute);

// Drops initializers and value_info entries no node or graph output refers to any more (one pass).
void removeUnusedInitializers(onnx::GraphProto& graph);

}  // namespace ql
