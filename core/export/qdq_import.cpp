#include "core/export/qdq_import.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "core/export/fp16_import.h"
#include "core/export/graph_preparation.h"
#include "core/export/proto_graph.h"
#include "core/export/quant_params.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

bool isOp(const onnx::NodeProto& node, const char* op) {
    return node.op_type() == op && (node.domain().empty() || node.domain() == "ai.onnx");
}

class QdqRemover {
public:
    QdqRemover(onnx::GraphProto& graph, std::string label) : mGraph(graph), mLabel(std::move(label)) {
        for (int i = 0; i < graph.initializer_size(); ++i) mInitializers[graph.initializer(i).name()] = i;
        for (int i = 0; i < graph.node_size(); ++i)
            for (const auto& output : graph.node(i).output()) mProducer[output] = i;
        for (const auto& input : graph.input()) mUsed.insert(input.name());
        for (const auto& [name, index] : mInitializers) mUsed.insert(name);
        for (const auto& [name, index] : mProducer) mUsed.insert(name);
    }

    Status run() {
        std::vector<bool> removed(static_cast<size_t>(mGraph.node_size()), false);
        for (int i = 0; i < mGraph.node_size(); ++i) {
            if (!isOp(mGraph.node(i), "DequantizeLinear")) continue;
            QL_RETURN_IF_ERROR(removeDequantize(mGraph.node(i)));
            removed[static_cast<size_t>(i)] = true;
        }
        renameInputs(mGraph);
        std::unordered_set<std::string> read;
        for (int i = 0; i < mGraph.node_size(); ++i)
            if (!removed[static_cast<size_t>(i)])
                for (const auto& input : mGraph.node(i).input()) read.insert(input);
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        for (int i = 0; i < mGraph.node_size(); ++i) {
            const auto& node = mGraph.node(i);
            if (isOp(node, "QuantizeLinear") && read.count(node.output(0)) == 0 &&
                !isGraphOutput(mGraph, node.output(0)))
                continue;  // its DequantizeLinear is gone
            if (!removed[static_cast<size_t>(i)])
                *nodes.Add() = node;
            else if (isGraphOutput(mGraph, node.output(0)))
                *nodes.Add() = identity(node);
        }
        mGraph.mutable_node()->Swap(&nodes);
        removeUnusedInitializers(mGraph);
        return Status::ok();
    }

    const std::unordered_map<std::string, TensorRange>& activations() const { return mActivations; }
    const std::vector<WeightRange>& weights() const { return mWeights; }

private:
    std::string where(const onnx::NodeProto& node) const {
        return mLabel + ": DequantizeLinear '" + node.name() + "' (output '" + node.output(0) + "')";
    }
    Status nodeError(const onnx::NodeProto& node, const std::string& what) const {
        return invalidModel(where(node) + ": " + what);
    }

    // An initializer or a Constant node's value.
    const onnx::TensorProto* constant(const std::string& name) {
        if (auto it = mInitializers.find(name); it != mInitializers.end()) return &mGraph.initializer(it->second);
        auto producer = mProducer.find(name);
        if (producer == mProducer.end() || !isOp(mGraph.node(producer->second), "Constant")) return nullptr;
        auto tensor = constantNodeTensor(mGraph.node(producer->second));
        if (!tensor) return nullptr;
        return &(mConstants[name] = std::move(*tensor));
    }

    Result<QuantizationParams> paramsOf(const onnx::NodeProto& node) {
        const auto* scale = node.input_size() > 1 ? constant(node.input(1)) : nullptr;
        if (!scale) return nodeError(node, "the scale is not a constant; only constant scales can be read");
        const onnx::TensorProto* zero = nullptr;
        if (node.input_size() > 2 && !node.input(2).empty()) {
            zero = constant(node.input(2));
            if (!zero) return nodeError(node, "the zero point is not a constant");
        }
        int64_t axis = 1;
        for (const auto& attr : node.attribute())
            if (attr.name() == "axis") axis = attr.i();
        return readQuantParams(*scale, zero, axis, where(node));
    }

    Status removeDequantize(const onnx::NodeProto& node) {
        QL_ASSIGN_OR_RETURN(const QuantizationParams params, paramsOf(node));
        const std::string& x = node.input(0);
        std::string source;
        bool weight = false;
        if (auto producer = mProducer.find(x);
            producer != mProducer.end() && isOp(mGraph.node(producer->second), "QuantizeLinear")) {
            source = mGraph.node(producer->second).input(0);
            weight = mInitializers.count(source) != 0;
        } else if (auto it = mInitializers.find(x); it != mInitializers.end()) {
            QL_ASSIGN_OR_RETURN(source, floatWeight(node, mGraph.initializer(it->second), params));
            weight = true;
        } else {
            return nodeError(node,
                             "its input '" + x + "' is neither a QuantizeLinear output nor a quantized initializer");
        }
        mRename[node.output(0)] = source;
        if (weight) {
            WeightRange range{source, kNoId, params.axis, {}};
            for (size_t c = 0; c < params.scales.size(); ++c) range.amax.push_back(rangeAmax(params, c));
            mWeights.push_back(std::move(range));
            return Status::ok();
        }
        TensorRange range;
        range.name = source;
        for (size_t c = 0; c < params.scales.size(); ++c) {
            float lo = 0, hi = 0;
            const float amax = rangeAmax(params, c, &lo, &hi);
            if (c == 0 || amax > range.amax) range.amax = amax, range.min = lo, range.max = hi;
        }
        mActivations[source] = range;
        return Status::ok();
    }

    // The FLOAT initializer holding (level - zero point) * scale of a quantized weight; its name.
    Result<std::string> floatWeight(const onnx::NodeProto& node, const onnx::TensorProto& quantized,
                                    const QuantizationParams& params) {
        if (auto it = mRestored.find(quantized.name()); it != mRestored.end()) return it->second;
        QL_ASSIGN_OR_RETURN(const auto values, dequantizeTensor(quantized, params, true, where(node)));
        const std::vector<int64_t> dims(quantized.dims().begin(), quantized.dims().end());
        std::string name = quantized.name();
        const std::string suffix = "_quantized";
        if (name.size() > suffix.size() && name.ends_with(suffix)) name.resize(name.size() - suffix.size());
        if (mUsed.count(name) != 0) name = node.output(0);
        *mGraph.add_initializer() = makeFloatTensor(name, dims, values);
        mUsed.insert(name);
        mRestored[quantized.name()] = name;
        return name;
    }

    void renameInputs(onnx::GraphProto& graph) const {
        for (auto& node : *graph.mutable_node()) {
            for (auto& input : *node.mutable_input())
                if (auto it = mRename.find(input); it != mRename.end()) input = it->second;
            for (auto& attr : *node.mutable_attribute()) {
                if (attr.has_g()) renameInputs(*attr.mutable_g());
                for (auto& g : *attr.mutable_graphs()) renameInputs(g);
            }
        }
    }

    // A graph output written by a removed DequantizeLinear keeps its name through an Identity.
    onnx::NodeProto identity(const onnx::NodeProto& dq) const {
        onnx::NodeProto node;
        node.set_op_type("Identity");
        node.set_name(dq.name());
        node.add_input(mRename.at(dq.output(0)));
        node.add_output(dq.output(0));
        return node;
    }

    onnx::GraphProto& mGraph;
    std::string mLabel;
    std::unordered_map<std::string, int> mInitializers;
    std::unordered_map<std::string, int> mProducer;
    std::unordered_set<std::string> mUsed;
    std::unordered_map<std::string, onnx::TensorProto> mConstants;
    std::unordered_map<std::string, std::string> mRename;    // DQ output -> float tensor
    std::unordered_map<std::string, std::string> mRestored;  // quantized initializer -> float initializer
    std::unordered_map<std::string, TensorRange> mActivations;
    std::vector<WeightRange> mWeights;
};

// The nodes of `graph` writing `outputs`, in graph order. Q/DQ nodes that wrote float16 are gone and not named.
std::vector<std::string> islandNodeNames(const Graph& graph, const std::vector<std::string>& outputs) {
    std::vector<bool> island(graph.nodes().size(), false);
    for (const std::string& output : outputs)
        if (auto v = graph.findValue(output); v && graph.value(*v).producer != kNoId)
            island[static_cast<size_t>(graph.value(*v).producer)] = true;
    std::vector<std::string> names;
    for (const Node& node : graph.nodes())
        if (island[static_cast<size_t>(node.id)]) names.push_back(node.name);
    return names;
}

}  // namespace

float amaxForScale(float scale) {
    const float amax = scale * 127.0f;
    if (!std::isfinite(amax) || amax / 127.0f == scale) return amax;
    float up = amax, down = amax;
    for (int step = 0; step < 4; ++step) {
        up = std::nextafter(up, std::numeric_limits<float>::infinity());
        if (up / 127.0f == scale) return up;
        down = std::nextafter(down, 0.0f);
        if (down / 127.0f == scale) return down;
    }
    return amax;
}

bool hasQdqNodes(const Graph& graph) {
    return std::any_of(graph.nodes().begin(), graph.nodes().end(), [](const Node& node) {
        return (node.domain.empty() || node.domain == "ai.onnx") &&
               (node.opType == "QuantizeLinear" || node.opType == "DequantizeLinear");
    });
}

Result<DequantizedModel> dequantizeQdqModel(const Model& qdq) {
    QL_ASSIGN_OR_RETURN(auto proto, selfContainedProto(qdq));
    // Islands first: the Q/DQ pairs then read and write the float32 tensors the export started from.
    Float16Removal islands;
    if (hasFloat16Islands(qdq.graph())) {
        QL_ASSIGN_OR_RETURN(islands, removeFloat16Islands(*proto.mutable_graph(), qdq.graph()));
    }
    QdqRemover remover(*proto.mutable_graph(), qdq.fileName());
    QL_RETURN_IF_ERROR(remover.run());
    DequantizedModel result;
    QL_ASSIGN_OR_RETURN(result.model, reloadModel(proto, qdq));
    const Graph& graph = result.model->graph();
    result.fp16Nodes = islandNodeNames(graph, islands.islandOutputs);
    result.float16Io = islands.float16Io;
    for (const Value& value : graph.values())
        if (auto it = remover.activations().find(value.name); it != remover.activations().end())
            result.scales.activations.push_back(it->second);
    for (WeightRange weight : remover.weights()) {
        const auto v = graph.findValue(weight.name);
        if (!v || graph.value(*v).consumers.empty()) continue;
        weight.layer = graph.value(*v).consumers.front();
        result.scales.weights.push_back(std::move(weight));
    }
    return result;
}

}  // namespace ql
