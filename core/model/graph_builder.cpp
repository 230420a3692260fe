#include "core/model/graph_builder.h"

#include <onnx/onnx_pb.h>

#include <deque>
#include <functional>
#include <limits>
#include <queue>

#include "core/common/element_count.h"
#include "core/model/external_data.h"
#include "core/model/tensor_data.h"

namespace ql {

namespace {

TensorType tensorTypeFrom(const onnx::TypeProto& type) {
    TensorType result;
    if (!type.has_tensor_type()) return result;
    const auto& tensor = type.tensor_type();
    result.dtype = dataTypeFromOnnx(tensor.elem_type());
    if (tensor.has_shape()) {
        result.hasShape = true;
        for (const auto& d : tensor.shape().dim()) {
            Dim dim;
            if (d.has_dim_value())
                dim.size = d.dim_value();
            else if (d.has_dim_param())
                dim.symbol = d.dim_param();
            result.dims.push_back(dim);
        }
    }
    return result;
}

void countSubgraph(const onnx::GraphProto& graph, SubgraphInfo& info) {
    for (const auto& node : graph.node()) {
        ++info.nodeCount;
        ++info.opCounts[node.op_type()];
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) countSubgraph(attr.g(), info);
            for (const auto& g : attr.graphs()) countSubgraph(g, info);
        }
    }
}

std::string nodeLabel(const onnx::NodeProto& node, size_t index) {
    if (!node.name().empty()) return "'" + node.name() + "' (" + node.op_type() + ")";
    return node.op_type() + " node #" + std::to_string(index);
}

}  // namespace

Result<Graph> GraphBuilder::build(const onnx::ModelProto& model, ExternalDataResolver& externalData) {
    if (!model.has_graph()) return invalidModel("the file holds no graph (not an ONNX model?)");
    GraphBuilder builder(model, externalData);
    const auto& g = model.graph();
    const size_t valueCount = static_cast<size_t>(g.initializer_size() + g.input_size() + g.node_size());
    builder.mGraph.mValues.reserve(valueCount);  // about one value per node: no rehash while adding 10^5 of them
    builder.mGraph.mValueIndex.reserve(valueCount);
    for (const auto& opset : model.opset_import()) {
        const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
        builder.mGraph.mOpsets[domain] = opset.version();
    }
    QL_RETURN_IF_ERROR(builder.addInitializers());
    QL_RETURN_IF_ERROR(builder.addGraphInputs());
    QL_RETURN_IF_ERROR(builder.addNodes());
    QL_RETURN_IF_ERROR(builder.sortTopologically());
    QL_RETURN_IF_ERROR(builder.markOutputs());
    builder.applyValueInfo();
    linkQdqPairs(builder.mGraph);
    computeLayerCosts(builder.mGraph);
    return std::move(builder.mGraph);
}

ValueId GraphBuilder::valueFor(const std::string& name) {
    auto [it, inserted] = mGraph.mValueIndex.try_emplace(name, static_cast<ValueId>(mGraph.mValues.size()));
    if (inserted) {
        Value v;
        v.name = name;
        mGraph.mValues.push_back(std::move(v));
    }
    return it->second;
}

Status GraphBuilder::addInitializers() {
    const auto& g = mModel.graph();
    mGraph.mInitializers.reserve(static_cast<size_t>(g.initializer_size()));
    for (const auto& t : g.initializer()) {
        if (t.name().empty()) return invalidModel("an initializer has no name");
        if (mGraph.mValueIndex.count(t.name())) return invalidModel("initializer '" + t.name() + "' is defined twice");
        Initializer init;
        init.name = t.name();
        init.dtype = dataTypeFromOnnx(t.data_type());
        init.dims.assign(t.dims().begin(), t.dims().end());
        for (int64_t d : init.dims)
            if (d < 0) return invalidModel("initializer '" + t.name() + "' has a negative dimension");
        init.elementCount = tensorElementCount(t);
        init.proto = &t;
        const size_t elementSize = dataTypeSize(init.dtype);
        const auto byteSize = checkedByteSize(init.dims, elementSize);
        if (!byteSize || *byteSize > std::numeric_limits<size_t>::max() / 2)
            return invalidModel("initializer '" + t.name() +
                                "' declares a shape of more bytes than any memory holds (corrupt file?)");
        if (init.dtype == DataType::String) {
            for (const auto& s : t.string_data()) init.byteSize += s.size();
        } else {
            init.byteSize = static_cast<size_t>(*byteSize);
        }
        if (t.data_location() == onnx::TensorProto::EXTERNAL) {
            auto bytes = mExternal->resolve(t, init.byteSize);
            if (!bytes) return bytes.status().withContext("initializer '" + t.name() + "'");
            init.rawBytes = *bytes;
            init.external = true;
        } else if (t.has_raw_data()) {
            init.rawBytes = {reinterpret_cast<const std::byte*>(t.raw_data().data()), t.raw_data().size()};
            if (elementSize != 0 && init.rawBytes.size() != init.byteSize)
                return invalidModel("initializer '" + t.name() + "' holds " + std::to_string(init.rawBytes.size()) +
                                    " bytes but its shape and type need " + std::to_string(init.byteSize) +
                                    " (truncated or corrupt file?)");
        }
        const ValueId id = valueFor(t.name());
        auto& value = mGraph.mValues[static_cast<size_t>(id)];
        value.initializer = static_cast<int32_t>(mGraph.mInitializers.size());
        value.type.dtype = init.dtype;
        value.type.hasShape = true;
        for (int64_t d : init.dims) value.type.dims.push_back(Dim{d, {}});
        mGraph.mInitializers.push_back(std::move(init));
    }
    return Status::ok();
}

Status GraphBuilder::addGraphInputs() {
    for (const auto& input : mModel.graph().input()) {
        if (input.name().empty()) return invalidModel("a graph input has no name");
        const ValueId id = valueFor(input.name());
        auto& value = mGraph.mValues[static_cast<size_t>(id)];
        if (value.isGraphInput) return invalidModel("graph input '" + input.name() + "' is listed twice");
        value.isGraphInput = true;
        // IR < 4 lists initializers as inputs too; those are weights, not inputs the user feeds.
        if (value.initializer < 0) {
            value.type = tensorTypeFrom(input.type());
            mGraph.mInputs.push_back(id);
        }
    }
    return Status::ok();
}

Status GraphBuilder::addNodes() {
    const auto& g = mModel.graph();
    mGraph.mNodes.reserve(static_cast<size_t>(g.node_size()));
    std::unordered_map<std::string, int> generatedNames;
    // Outputs first, so that inputs can refer to values produced later in file order.
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& proto = g.node(i);
        Node node;
        node.id = static_cast<NodeId>(i);
        node.proto = &proto;
        node.opType = proto.op_type();
        node.domain = proto.domain() == "ai.onnx" ? "" : proto.domain();
        if (proto.op_type().empty()) return invalidModel(nodeLabel(proto, static_cast<size_t>(i)) + " has no op type");
        for (const auto& out : proto.output()) {
            if (out.empty()) {
                node.outputs.push_back(kNoId);
                continue;
            }
            const ValueId id = valueFor(out);
            auto& value = mGraph.mValues[static_cast<size_t>(id)];
            if (value.producer == node.id)
                return invalidModel(nodeLabel(proto, static_cast<size_t>(i)) + " lists output '" + out + "' twice");
            if (value.producer != kNoId)
                return invalidModel("tensor '" + out + "' is produced by both " +
                                    nodeLabel(*mGraph.mNodes[static_cast<size_t>(value.producer)].proto,
                                              static_cast<size_t>(value.producer)) +
                                    " and " + nodeLabel(proto, static_cast<size_t>(i)));
            if (value.initializer >= 0 || value.isGraphInput)
                return invalidModel(nodeLabel(proto, static_cast<size_t>(i)) + " writes tensor '" + out +
                                    "', which is already a graph input or initializer");
            value.producer = node.id;
            node.outputs.push_back(id);
        }
        for (const auto& attr : proto.attribute()) {
            auto addSubgraph = [&](const onnx::GraphProto& sub) {
                SubgraphInfo info;
                info.attribute = attr.name();
                info.name = sub.name();
                countSubgraph(sub, info);
                node.subgraphs.push_back(std::move(info));
            };
            if (attr.has_g()) addSubgraph(attr.g());
            for (const auto& sub : attr.graphs()) addSubgraph(sub);
        }
        mGraph.mNodes.push_back(std::move(node));
    }
    for (auto& node : mGraph.mNodes) {
        for (const auto& in : node.proto->input()) {
            if (in.empty()) {
                node.inputs.push_back(kNoId);
                continue;
            }
            auto it = mGraph.mValueIndex.find(in);
            const bool defined =
                it != mGraph.mValueIndex.end() && (mGraph.mValues[static_cast<size_t>(it->second)].producer != kNoId ||
                                                   mGraph.mValues[static_cast<size_t>(it->second)].initializer >= 0 ||
                                                   mGraph.mValues[static_cast<size_t>(it->second)].isGraphInput);
            if (!defined)
                return invalidModel(nodeLabel(*node.proto, static_cast<size_t>(node.id)) + " reads tensor '" + in +
                                    "', which no node produces and which is neither a graph input nor an "
                                    "initializer");
            node.inputs.push_back(it->second);
        }
    }
    // Names: keep the model's; generate "<OpType>_<n>" for unnamed nodes, avoiding collisions.
    std::unordered_map<std::string, int> used;
    for (const auto& node : mGraph.mNodes)
        if (!node.proto->name().empty()) ++used[node.proto->name()];
    for (auto& node : mGraph.mNodes) {
        if (!node.proto->name().empty()) {
            node.name = node.proto->name();
            continue;
        }
        std::string candidate;
        do {
            candidate = node.opType + "_" + std::to_string(generatedNames[node.opType]++);
        } while (used.count(candidate));
        used[candidate] = 1;
        node.name = candidate;
        node.nameGenerated = true;
    }
    return Status::ok();
}

Status GraphBuilder::sortTopologically() {
    auto& nodes = mGraph.mNodes;
    const size_t n = nodes.size();
    std::vector<int> pending(n, 0);
    std::vector<std::vector<NodeId>> successors(n);
    for (const auto& node : nodes) {
        for (ValueId in : node.inputs) {
            if (in == kNoId) continue;
            const NodeId producer = mGraph.mValues[static_cast<size_t>(in)].producer;
            if (producer == kNoId) continue;
            successors[static_cast<size_t>(producer)].push_back(node.id);
            ++pending[static_cast<size_t>(node.id)];
        }
    }
    // Kahn's algorithm, always taking the earliest ready node in file order so a sorted file keeps its order.
    std::vector<NodeId> order;
    order.reserve(n);
    std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
    for (size_t i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push(static_cast<NodeId>(i));
    while (!ready.empty()) {
        const NodeId id = ready.top();
        ready.pop();
        order.push_back(id);
        for (NodeId next : successors[static_cast<size_t>(id)])
            if (--pending[static_cast<size_t>(next)] == 0) ready.push(next);
    }
    if (order.size() != n) {
        for (size_t i = 0; i < n; ++i)
            if (pending[i] > 0)
                return invalidModel("the graph has a cycle: " + nodeLabel(*nodes[i].proto, i) +
                                    " depends on its own output (directly or through other nodes)");
    }
    std::vector<NodeId> newId(n);
    for (size_t pos = 0; pos < n; ++pos) newId[static_cast<size_t>(order[pos])] = static_cast<NodeId>(pos);
    std::vector<Node> sorted(n);
    for (size_t old = 0; old < n; ++old) {
        sorted[static_cast<size_t>(newId[old])] = std::move(nodes[old]);
        sorted[static_cast<size_t>(newId[old])].id = newId[old];
    }
    nodes = std::move(sorted);
    for (auto& value : mGraph.mValues) {
        value.consumers.clear();
        if (value.producer != kNoId) value.producer = newId[static_cast<size_t>(value.producer)];
    }
    for (const auto& node : nodes) {
        mGraph.mNodeIndex.emplace(node.name, node.id);
        for (ValueId in : node.inputs) {
            if (in == kNoId) continue;
            auto& consumers = mGraph.mValues[static_cast<size_t>(in)].consumers;
            if (consumers.empty() || consumers.back() != node.id) consumers.push_back(node.id);
        }
    }
    return Status::ok();
}

Status GraphBuilder::markOutputs() {
    for (const auto& output : mModel.graph().output()) {
        auto it = mGraph.mValueIndex.find(output.name());
        if (it == mGraph.mValueIndex.end())
            return invalidModel("graph output '" + output.name() + "' is not produced by any node");
        mGraph.mValues[static_cast<size_t>(it->second)].isGraphOutput = true;
        mGraph.mOutputs.push_back(it->second);
    }
    applyOutputTypes();
    return Status::ok();
}

void GraphBuilder::applyOutputTypes() {
    for (const auto& output : mModel.graph().output()) {
        auto it = mGraph.mValueIndex.find(output.name());
        if (it == mGraph.mValueIndex.end()) continue;
        const TensorType declared = tensorTypeFrom(output.type());
        if (declared.dtype != DataType::Undefined || declared.hasShape)
            mGraph.mValues[static_cast<size_t>(it->second)].type = declared;
    }
}

void GraphBuilder::retype(Graph& graph, const onnx::ModelProto& model) {
    GraphBuilder builder(model, std::move(graph));
    for (Value& value : builder.mGraph.mValues)
        if (value.initializer < 0 && !value.isGraphInput) value.type = TensorType{};  // as build() finds them
    builder.applyOutputTypes();
    builder.applyValueInfo();
    computeLayerCosts(builder.mGraph);
    graph = std::move(builder.mGraph);
}

void GraphBuilder::applyValueInfo() {
    for (const auto& info : mModel.graph().value_info()) {
        auto it = mGraph.mValueIndex.find(info.name());
        if (it == mGraph.mValueIndex.end()) continue;
        auto& value = mGraph.mValues[static_cast<size_t>(it->second)];
        if (value.initializer >= 0 || value.isGraphInput) continue;
        const TensorType inferred = tensorTypeFrom(info.type());
        if (value.type.dtype == DataType::Undefined) value.type.dtype = inferred.dtype;
        if (!value.type.hasShape || (!value.type.fullyKnown() && inferred.fullyKnown())) {
            if (inferred.hasShape) {
                value.type.hasShape = true;
                value.type.dims = inferred.dims;
            }
        }
    }
}

}  // namespace ql
