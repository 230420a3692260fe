#include "core/export/batchnorm_folding.h"

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/export/proto_graph.h"
#include "core/quant/batchnorm_fold.h"

namespace ql {
namespace {

std::string displayName(const onnx::NodeProto& node) {
    return node.name().empty() ? node.op_type() + " -> " + node.output(0) : node.name();
}

int64_t intAttr(const onnx::NodeProto& node, const std::string& name, int64_t fallback) {
    for (const auto& attr : node.attribute())
        if (attr.name() == name) return attr.i();
    return fallback;
}

float floatAttr(const onnx::NodeProto& node, const std::string& name, float fallback) {
    for (const auto& attr : node.attribute())
        if (attr.name() == name) return attr.f();
    return fallback;
}

void setFloatAttr(onnx::NodeProto& node, const std::string& name, float value) {
    for (auto& attr : *node.mutable_attribute())
        if (attr.name() == name) return attr.set_f(value);
    auto* attr = node.add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::FLOAT);
    attr->set_f(value);
}

// The graph's names, producers, reference counts and initializers, built once per pass and kept current as
// BatchNormalizations fold, so folding every BatchNormalization of a model is linear in its size.
class FoldIndex {
public:
    explicit FoldIndex(onnx::GraphProto& graph) : mGraph(graph), mNames(graph) {
        countReferences(graph);
        for (const auto& input : graph.input()) mOverridable.insert(input.name());
        for (auto& init : *graph.mutable_initializer()) mInitializers[init.name()] = &init;
        for (int i = 0; i < graph.node_size(); ++i)
            for (const auto& output : graph.node(i).output()) mProducer[output] = i;
    }

    // A constant initializer (not also a graph input), or nullptr.
    onnx::TensorProto* constant(const std::string& name) const {
        if (name.empty() || mOverridable.count(name) != 0) return nullptr;
        const auto it = mInitializers.find(name);
        return it == mInitializers.end() ? nullptr : it->second;
    }
    int references(const std::string& name) const {
        const auto it = mReferences.find(name);
        return it == mReferences.end() ? 0 : it->second;
    }
    int producer(const std::string& name) const {
        const auto it = mProducer.find(name);
        return it == mProducer.end() ? -1 : it->second;
    }
    std::string uniqueName(const std::string& base) { return mNames.make(base); }
    void addInitializer(onnx::TensorProto tensor) {
        auto* added = mGraph.add_initializer();
        *added = std::move(tensor);
        mInitializers[added->name()] = added;
    }
    void addReference(const std::string& name, int delta) { mReferences[name] += delta; }
    // The layer at `layer` now writes what the BatchNormalization `bn` wrote; `bn` is gone.
    void folded(const onnx::NodeProto& bn, int layer) {
        for (const auto& input : bn.input()) addReference(input, -1);
        mProducer.erase(bn.input(0));
        mProducer[bn.output(0)] = layer;
    }

private:
    void countReferences(const onnx::GraphProto& graph) {
        for (const auto& node : graph.node()) {
            for (const auto& input : node.input()) ++mReferences[input];
            for (const auto& attr : node.attribute()) {
                if (attr.has_g()) countReferences(attr.g());
                for (const auto& g : attr.graphs()) countReferences(g);
            }
        }
        for (const auto& output : graph.output()) ++mReferences[output.name()];
    }

    onnx::GraphProto& mGraph;
    UniqueNames mNames;
    std::unordered_map<std::string, int> mReferences;
    std::unordered_map<std::string, int> mProducer;
    std::unordered_set<std::string> mOverridable;
    std::unordered_map<std::string, onnx::TensorProto*> mInitializers;
};

// A constant float initializer only this node reads, or nullptr.
onnx::TensorProto* privateConstant(const FoldIndex& index, const std::string& name) {
    auto* tensor = index.references(name) == 1 ? index.constant(name) : nullptr;
    return tensor && tensor->data_type() == onnx::TensorProto::FLOAT ? tensor : nullptr;
}

Result<ChannelAffine> constantBatchNormAffine(const FoldIndex& index, const onnx::NodeProto& bn) {
    std::vector<std::vector<float>> params;
    for (int i = 1; i <= 4; ++i) {
        auto* tensor = i < bn.input_size() ? index.constant(bn.input(i)) : nullptr;
        if (!tensor) return unsupported("its input " + std::to_string(i) + " is not a constant initializer");
        QL_ASSIGN_OR_RETURN(auto values, readFloatInitializer(*tensor));
        params.push_back(std::move(values));
    }
    return batchNormAffine(params, floatAttr(bn, "epsilon", 1e-5f));
}

Result<OutputChannelLayout> weightLayout(const onnx::NodeProto& layer, const onnx::TensorProto& weight) {
    return outputChannelLayout(layer.op_type(), {weight.dims().begin(), weight.dims().end()},
                               intAttr(layer, "group", 1), intAttr(layer, "transB", 0) != 0);
}

// Conv / ConvTranspose bias: [M]; absent means zeros.
std::vector<float> foldedConvBias(const std::vector<float>& bias, const ChannelAffine& bn) {
    std::vector<float> out(bn.scale.size());
    for (size_t c = 0; c < out.size(); ++c) out[c] = (bias.empty() ? 0.0f : bias[c]) * bn.scale[c] + bn.shift[c];
    return out;
}

// Gemm C is unidirectionally broadcast to [rows, N]; the folded C keeps its rows and gets N columns.
Result<onnx::TensorProto> foldedGemmBias(const onnx::TensorProto* c, float beta, const ChannelAffine& bn,
                                         const std::string& name) {
    const auto n = static_cast<int64_t>(bn.scale.size());
    std::vector<float> values{0.0f};
    std::vector<int64_t> dims;
    if (c) {
        QL_ASSIGN_OR_RETURN(values, readFloatInitializer(*c));
        dims.assign(c->dims().begin(), c->dims().end());
    }
    if (dims.size() > 2) return unsupported("its C has rank " + std::to_string(dims.size()));
    const int64_t rows = dims.size() == 2 ? dims[0] : 1;
    const int64_t cols = dims.empty() ? 1 : dims.back();
    if (cols != 1 && cols != n) return unsupported("its C does not broadcast to the output channels");
    std::vector<float> out(static_cast<size_t>(rows * n));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < n; ++j) {
            const float v = c ? beta * values[static_cast<size_t>(r * cols + (cols == 1 ? 0 : j))] : 0.0f;
            out[static_cast<size_t>(r * n + j)] = v * bn.scale[j] + bn.shift[j];
        }
    return makeFloatTensor(name, rows == 1 ? std::vector<int64_t>{n} : std::vector<int64_t>{rows, n}, out);
}

Status foldInto(FoldIndex& index, onnx::NodeProto& layer, const ChannelAffine& bn) {
    auto* weight = layer.input_size() > 1 ? privateConstant(index, layer.input(1)) : nullptr;
    if (!weight) return unsupported("the weight of '" + displayName(layer) + "' is not a float initializer it owns");
    const bool hasBias = layer.input_size() > 2 && !layer.input(2).empty();
    auto* bias = hasBias ? privateConstant(index, layer.input(2)) : nullptr;
    if (hasBias && !bias)
        return unsupported("the bias of '" + displayName(layer) + "' is not a float initializer it owns");
    // foldedBatchNorm (core/quant/batchnorm_fold.h) mirrors these checks for the placement on the unfolded model.
    QL_ASSIGN_OR_RETURN(auto layout, weightLayout(layer, *weight));
    if (layout.channels != static_cast<int64_t>(bn.scale.size()))
        return unsupported("'" + displayName(layer) + "' has " + std::to_string(layout.channels) + " channels");
    const bool gemm = layer.op_type() == "Gemm";
    onnx::TensorProto newBias;
    const std::string biasName = hasBias ? layer.input(2) : index.uniqueName(layer.output(0) + "_bias");
    if (gemm) {
        QL_ASSIGN_OR_RETURN(newBias, foldedGemmBias(bias, floatAttr(layer, "beta", 1.0f), bn, biasName));
    } else {
        std::vector<float> old;
        if (bias) {
            QL_ASSIGN_OR_RETURN(old, readFloatInitializer(*bias));
        }
        if (bias && old.size() != bn.scale.size()) return unsupported("its bias length differs from its channels");
        newBias = makeFloatTensor(biasName, {layout.channels}, foldedConvBias(old, bn));
    }
    QL_ASSIGN_OR_RETURN(auto w, readFloatInitializer(*weight));
    for (size_t i = 0; i < w.size(); ++i)
        w[i] *= bn.scale[static_cast<size_t>(layout.channelOf(static_cast<int64_t>(i)))];
    *weight = makeFloatTensor(weight->name(), {weight->dims().begin(), weight->dims().end()}, w);
    if (bias) {
        *bias = std::move(newBias);
    } else {
        index.addInitializer(std::move(newBias));
        index.addReference(biasName, 1);
    }
    while (layer.input_size() < 3) layer.add_input("");
    layer.set_input(2, biasName);
    if (gemm) setFloatAttr(layer, "beta", 1.0f);
    return Status::ok();
}

// Why this BatchNormalization cannot be folded, or the layer it folds into.
Result<int> foldTarget(const onnx::GraphProto& graph, const FoldIndex& index, const onnx::NodeProto& bn) {
    if (intAttr(bn, "training_mode", 0) != 0) return unsupported("it runs in training mode");
    if (intAttr(bn, "spatial", 1) == 0) return unsupported("it is not spatial");
    for (int i = 1; i < bn.output_size(); ++i)
        if (!bn.output(i).empty()) return unsupported("its running statistics are outputs");
    const std::string& x = bn.input(0);
    const int producer = index.producer(x);
    if (producer < 0) return unsupported("its input is not produced by a layer");
    const auto& layer = graph.node(producer);
    if (!layer.domain().empty() ||
        (layer.op_type() != "Conv" && layer.op_type() != "ConvTranspose" && layer.op_type() != "Gemm"))
        return unsupported("it follows " + layer.op_type() + ", not Conv, ConvTranspose or Gemm");
    if (index.references(x) != 1) return unsupported("'" + x + "' has other consumers");
    return producer;
}

// Folds the BatchNormalization into its layer; the caller drops the BatchNormalization node.
Status foldOne(onnx::GraphProto& graph, FoldIndex& index, const onnx::NodeProto& bn) {
    QL_ASSIGN_OR_RETURN(int producer, foldTarget(graph, index, bn));
    QL_ASSIGN_OR_RETURN(auto affine, constantBatchNormAffine(index, bn));
    QL_RETURN_IF_ERROR(foldInto(index, *graph.mutable_node(producer), affine));
    graph.mutable_node(producer)->set_output(0, bn.output(0));
    index.folded(bn, producer);
    return Status::ok();
}

}  // namespace

Status foldBatchNorms(onnx::GraphProto& graph, std::vector<PreparationStep>& steps) {
    FoldIndex index(graph);
    std::vector<bool> removed(static_cast<size_t>(graph.node_size()), false);
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& node = graph.node(i);
        if (node.op_type() != "BatchNormalization" || !node.domain().empty() || node.input_size() < 5) continue;
        const std::string name = displayName(node);
        const int producer = index.producer(node.input(0));
        const std::string target = producer >= 0 ? displayName(graph.node(producer)) : std::string();
        Status folded = foldOne(graph, index, node);
        if (folded.isOk()) {
            steps.push_back({"fold-batchnorm", name, "into " + target});
            removed[static_cast<size_t>(i)] = true;
            continue;
        }
        if (folded.code() != StatusCode::Unsupported) return folded.withContext("BatchNormalization '" + name + "'");
        steps.push_back({"keep-batchnorm", name, folded.message()});
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int i = 0; i < graph.node_size(); ++i)
        if (!removed[static_cast<size_t>(i)]) *kept.Add() = graph.node(i);
    graph.mutable_node()->Swap(&kept);
    return Status::ok();
}

}  // namespace ql
