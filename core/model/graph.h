#pragma once
// The graph view of a loaded model: nodes in topological order, values with producer and consumers,
// initializers (referenced in place, never copied), inferred types, Q/DQ links and per-layer cost.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/data_type.h"

namespace onnx {
class NodeProto;
class TensorProto;
class AttributeProto;
}  // namespace onnx

namespace ql {

using NodeId = int32_t;
using ValueId = int32_t;
inline constexpr int32_t kNoId = -1;

// One dimension: a known size, or a symbol (e.g. "batch"), or unknown.
struct Dim {
    int64_t size = -1;
    std::string symbol;
    bool known() const { return size >= 0; }
};

struct TensorType {
    DataType dtype = DataType::Undefined;
    bool hasShape = false;  // false: rank unknown
    std::vector<Dim> dims;

    bool fullyKnown() const;
    // "[1,3,224,224]", "[batch,1000]", "[?,3]"; "?" when the rank is unknown.
    std::string shapeString() const;
};

struct Initializer {
    std::string name;
    DataType dtype = DataType::Undefined;
    std::vector<int64_t> dims;
    int64_t elementCount = 0;
    size_t byteSize = 0;
    const onnx::TensorProto* proto = nullptr;  // owned by the Model
    // In-place bytes when the data is stored raw (raw_data or external data); empty otherwise.
    std::span<const std::byte> rawBytes;
    bool external = false;
};

struct Value {
    std::string name;
    TensorType type;
    NodeId producer = kNoId;
    std::vector<NodeId> consumers;  // one entry per consuming node (not per input slot)
    int32_t initializer = -1;       // index into Graph::initializers()
    bool isGraphInput = false;
    bool isGraphOutput = false;
};

// Cost of one layer: multiply-accumulates for one inference of the model's declared shapes
// (unknown dims count as 1), and the bytes of its weight/bias initializers.
struct LayerCost {
    int64_t macs = 0;
    int64_t parameterBytes = 0;
    bool approximate = false;  // some dimension was unknown (a symbolic input dim, taken as 1)
};

// The shapes one run of the model saw (core/exec/observed_costs.h), for the values shape inference left open.
struct ObservedShapes {
    std::unordered_map<int32_t, std::vector<int64_t>> shapes;  // by ValueId
    bool approximate = false;  // the run took symbolic input dims as 1: counts from it are approximate
};

// A subgraph attribute of a control-flow node (If/Loop/Scan).
struct SubgraphInfo {
    std::string attribute;  // "then_branch", "else_branch", "body"
    std::string name;
    size_t nodeCount = 0;  // including nested subgraphs
    std::map<std::string, int64_t> opCounts;
};

struct Node {
    NodeId id = kNoId;
    std::string name;  // the model's name, or "<OpType>_<index>" when the model gives none
    bool nameGenerated = false;
    std::string opType;
    std::string domain;            // "" for the default ONNX domain
    std::vector<ValueId> inputs;   // kNoId for an omitted optional input
    std::vector<ValueId> outputs;  // kNoId for an omitted optional output
    const onnx::NodeProto* proto = nullptr;
    std::vector<SubgraphInfo> subgraphs;
    LayerCost cost;

    const onnx::AttributeProto* attribute(const std::string& name) const;
    int64_t intAttribute(const std::string& name, int64_t fallback) const;
    float floatAttribute(const std::string& name, float fallback) const;
    std::vector<int64_t> intsAttribute(const std::string& name) const;
    std::string stringAttribute(const std::string& name, const std::string& fallback = {}) const;
};

// "Node (name) Op (type): what" — the one spelling of node errors.
std::string nodeErrorMessage(const Node& node, const std::string& what);

// Quantization parameters read from a QuantizeLinear/DequantizeLinear pair.
struct QuantParams {
    std::vector<float> scales;        // one (per tensor) or one per channel
    std::vector<int64_t> zeroPoints;  // same length as scales, or empty when omitted
    DataType quantType = DataType::UInt8;
    int64_t axis = 1;  // meaningful when perChannel()
    bool perChannel() const { return scales.size() > 1; }
};

// A Q/DQ pair (or a lone DequantizeLinear on a quantized initializer) and the layer input it feeds.
struct QdqLink {
    NodeId quantize = kNoId;  // kNoId when the quantized tensor is stored as an int8/uint8 initializer
    NodeId dequantize = kNoId;
    NodeId layer = kNoId;      // the node that consumes the dequantized tensor
    int32_t layerInput = -1;   // which input slot of `layer`
    ValueId source = kNoId;    // the float tensor that was quantized (or the quantized initializer)
    bool isWeight = false;     // the source is an initializer (or a constant)
    bool paramsKnown = false;  // scale/zero point are constants we could read
    QuantParams params;
};

class Graph {
public:
    const std::vector<Node>& nodes() const { return mNodes; }
    const std::vector<Value>& values() const { return mValues; }
    const std::vector<Initializer>& initializers() const { return mInitializers; }
    const std::vector<ValueId>& inputs() const { return mInputs; }  // graph inputs that are not initializers
    const std::vector<ValueId>& outputs() const { return mOutputs; }
    const std::vector<QdqLink>& qdqLinks() const { return mQdqLinks; }
    const std::map<std::string, int64_t>& opsets() const { return mOpsets; }

    const Node& node(NodeId id) const { return mNodes.at(static_cast<size_t>(id)); }
    const Value& value(ValueId id) const { return mValues.at(static_cast<size_t>(id)); }
    std::optional<NodeId> findNode(const std::string& name) const;
    std::optional<ValueId> findValue(const std::string& name) const;
    const Initializer* initializerOf(ValueId id) const;
    // The opset the model imports for a domain ("" and "ai.onnx" are the same); 0 when not imported.
    int64_t opsetVersion(const std::string& domain = "") const;

private:
    friend class GraphBuilder;
    friend void linkQdqPairs(Graph& graph);
    friend void computeLayerCosts(Graph& graph, const ObservedShapes* observed);
    std::vector<Node> mNodes;
    std::vector<Value> mValues;
    std::vector<Initializer> mInitializers;
    std::vector<ValueId> mInputs;
    std::vector<ValueId> mOutputs;
    std::vector<QdqLink> mQdqLinks;
    std::map<std::string, int64_t> mOpsets;
    std::unordered_map<std::string, ValueId> mValueIndex;
    std::unordered_map<std::string, NodeId> mNodeIndex;
};

}  // namespace ql
