#include "core/export/fp16_import.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/common/disjoint_sets.h"
#include "core/common/half.h"
#include "core/export/proto_graph.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

const std::string kFp16Suffix = "_fp16";

bool isOp(const Node& node, const char* op) {
    return node.opType == op && (node.domain.empty() || node.domain == "ai.onnx");
}

bool isCastProto(const onnx::NodeProto& node) {
    return node.op_type() == "Cast" && (node.domain().empty() || node.domain() == "ai.onnx");
}

// Cast and Constant write float16 without computing anything: they say nothing of a layer's precision.
bool computes(const Node& node) {
    return !isOp(node, "Cast") && !isOp(node, "Constant");
}

DataType dtypeOf(const Graph& graph, ValueId v) {
    return v == kNoId ? DataType::Undefined : graph.value(v).type.dtype;
}

// A graph input or output the user feeds or reads (an initializer listed as an input is a constant).
bool isInterface(const Value& value) {
    return (value.isGraphInput && value.initializer < 0) || value.isGraphOutput;
}

// A Cast between float32 and float16, either way.
bool changesFloatWidth(const Graph& graph, const Node& node) {
    if (!isOp(node, "Cast") || node.inputs.empty() || node.outputs.empty()) return false;
    const DataType in = dtypeOf(graph, node.inputs[0]), out = dtypeOf(graph, node.outputs[0]);
    return (in == DataType::Float && out == DataType::Float16) || (in == DataType::Float16 && out == DataType::Float);
}

// Which tensors become float32 and which Casts go (the rule of the header), read from the inferred types.
class Float16Analysis {
public:
    explicit Float16Analysis(const Graph& graph) : mGraph(graph) {
        bool computesFloat16 = false, float16Io = false, float32Io = false;
        for (const Node& node : graph.nodes()) computesFloat16 = computesFloat16 || (computes(node) && writes(node));
        for (const Value& value : graph.values()) {
            if (!isInterface(value)) continue;
            float16Io = float16Io || value.type.dtype == DataType::Float16;
            float32Io = float32Io || value.type.dtype == DataType::Float;
        }
        mFloat16Io = computesFloat16 && float16Io && !float32Io;
    }

    bool float16Io() const { return mFloat16Io; }
    bool retyped(ValueId v) const { return dtypeOf(mGraph, v) == DataType::Float16 && !keepsFloat16(v); }
    bool removable(const Node& node) const {
        return changesFloatWidth(mGraph, node) && endsFloat32(node.inputs[0]) && endsFloat32(node.outputs[0]);
    }
    // A node that computed in float16: it writes a tensor that becomes float32.
    bool island(const Node& node) const { return computes(node) && firstRetypedOutput(node) != kNoId; }
    ValueId firstRetypedOutput(const Node& node) const {
        for (ValueId v : node.outputs)
            if (v != kNoId && retyped(v)) return v;
        return kNoId;
    }

private:
    bool writes(const Node& node) const {
        return std::any_of(node.outputs.begin(), node.outputs.end(),
                           [&](ValueId v) { return dtypeOf(mGraph, v) == DataType::Float16; });
    }
    bool endsFloat32(ValueId v) const { return dtypeOf(mGraph, v) == DataType::Float || retyped(v); }
    // The model's own float16 interface: a graph input read only by Casts, or an output written by a Cast and read
    // only by Casts. A float16 input or output an island node touches directly belongs to the island.
    bool keepsFloat16(ValueId v) const {
        const Value& value = mGraph.value(v);
        if (mFloat16Io || !isInterface(value)) return false;
        const auto isCast = [&](NodeId n) { return isOp(mGraph.node(n), "Cast"); };
        return (value.producer == kNoId || isCast(value.producer)) &&
               std::all_of(value.consumers.begin(), value.consumers.end(), isCast);
    }

    const Graph& mGraph;
    bool mFloat16Io = false;
};

// Every name a graph and its subgraphs use.
void collectNames(const onnx::GraphProto& graph, std::unordered_set<std::string>& names) {
    for (const auto& node : graph.node()) {
        names.insert(node.input().begin(), node.input().end());
        names.insert(node.output().begin(), node.output().end());
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectNames(attr.g(), names);
            for (const auto& g : attr.graphs()) collectNames(g, names);
        }
    }
    for (const auto& init : graph.initializer()) names.insert(init.name());
    for (const auto* list : {&graph.input(), &graph.output(), &graph.value_info()})
        for (const auto& info : *list) names.insert(info.name());
}

// A Constant's or ConstantOfShape's float16 `value`, a Cast's or EyeLike's float16 `to` / `dtype`: made float.
Status retypeAttributes(onnx::NodeProto& node) {
    for (auto& attr : *node.mutable_attribute()) {
        if (attr.type() == onnx::AttributeProto::INT && (attr.name() == "to" || attr.name() == "dtype") &&
            attr.i() == onnx::TensorProto::FLOAT16)
            attr.set_i(onnx::TensorProto::FLOAT);
        if (attr.type() != onnx::AttributeProto::TENSOR || attr.t().data_type() != onnx::TensorProto::FLOAT16) continue;
        QL_ASSIGN_OR_RETURN(const auto values, tensorAsFloats(attr.t()));
        const std::vector<int64_t> dims(attr.t().dims().begin(), attr.t().dims().end());
        *attr.mutable_t() = makeFloatTensor(attr.t().name(), dims, values);
    }
    return Status::ok();
}

// Merges the two ends of every removed Cast into one tensor (union-find over the graph's values), then rewrites the
// proto: Casts dropped, names chosen per merged tensor, float16 made float32.
class IslandRemover {
public:
    IslandRemover(onnx::GraphProto& proto, const Graph& graph)
        : mProto(proto), mGraph(graph), mAnalysis(graph), mSets(graph.values().size()) {
        for (const Value& value : graph.values()) mInterface.push_back(isInterface(value));
        for (ValueId v = 0; v < static_cast<ValueId>(graph.values().size()); ++v)
            if (mAnalysis.retyped(v)) mRetyped.insert(graph.value(v).name);
        for (int i = 0; i < proto.initializer_size(); ++i) mInitializers[proto.initializer(i).name()] = i;
        collectNames(proto, mNames);
    }

    Result<Float16Removal> run() {
        for (const Node& node : mGraph.nodes())
            if (mAnalysis.removable(node) && join(node.inputs[0], node.outputs[0]))
                mRemovedCasts.insert(mGraph.value(node.outputs[0]).name);
        QL_RETURN_IF_ERROR(restoreInitializers());
        chooseNames();
        QL_RETURN_IF_ERROR(rewriteNodes());
        rewriteInitializers();
        rewriteValueInfo();
        Float16Removal removal{.islandOutputs = {}, .float16Io = mAnalysis.float16Io()};
        for (const Node& node : mGraph.nodes())
            if (mAnalysis.island(node))
                removal.islandOutputs.push_back(finalName(mGraph.value(mAnalysis.firstRetypedOutput(node)).name));
        return removal;
    }

private:
    ValueId root(ValueId v) { return static_cast<ValueId>(mSets.root(static_cast<size_t>(v))); }

    // Makes two tensors one; false (and nothing merged) when both hold a graph input or output: the user sees both
    // names, so the Cast between them stays.
    bool join(ValueId a, ValueId b) {
        a = root(a), b = root(b);
        if (a == b) return true;
        const size_t ia = static_cast<size_t>(a), ib = static_cast<size_t>(b);
        if (mInterface[ia] && mInterface[ib]) return false;
        mSets.attach(ib, ia);
        mInterface[ia] = mInterface[ia] || mInterface[ib];
        return true;
    }

    // The float32 initializer `copy` ("<name>_fp16") was made from: same shape, values equal once rounded to half.
    std::optional<ValueId> float32Original(const Initializer& copy) const {
        if (copy.name.size() <= kFp16Suffix.size() || !copy.name.ends_with(kFp16Suffix)) return std::nullopt;
        const auto base = mGraph.findValue(copy.name.substr(0, copy.name.size() - kFp16Suffix.size()));
        const auto self = mGraph.findValue(copy.name);
        if (!base || !self || mGraph.value(*base).isGraphInput || mGraph.value(*self).isGraphInput)
            return std::nullopt;  // an overridable input is no constant to restore from
        const Initializer* original = mGraph.initializerOf(*base);
        if (!original || original->dtype != DataType::Float || original->dims != copy.dims) return std::nullopt;
        const auto full = tensorAsFloats(*original->proto, original->rawBytes);
        const auto half = tensorAsFloats(*copy.proto, copy.rawBytes);
        if (!full || !half || full->size() != half->size()) return std::nullopt;
        for (size_t i = 0; i < full->size(); ++i)
            if (floatToHalf((*full)[i]) != floatToHalf((*half)[i])) return std::nullopt;
        return *base;
    }

    // Float16 initializers: a copy of a float32 one is dropped for its original (exact values), others converted.
    Status restoreInitializers() {
        for (const Initializer& init : mGraph.initializers()) {
            const auto v = mGraph.findValue(init.name);
            if (!v || !mAnalysis.retyped(*v)) continue;
            if (auto original = float32Original(init); original && join(*original, *v)) {
                mDroppedInitializers.insert(init.name);
                continue;
            }
            onnx::TensorProto& tensor = *mProto.mutable_initializer(mInitializers.at(init.name));
            auto values = tensorAsFloats(tensor);
            if (!values)
                return invalidModel("float16 initializer '" + init.name + "': " + values.status().message() +
                                    "; it cannot be made float32 again");
            tensor = makeFloatTensor(init.name, init.dims, *values);
        }
        return Status::ok();
    }

    // How strongly a tensor's name should survive the merge: a graph input or output, the float32 tensor whose
    // producer stays, another float32 tensor, a float16 one; earlier in the graph first.
    std::tuple<int, ValueId> rank(ValueId v) const {
        const Value& value = mGraph.value(v);
        const bool castOutput = mRemovedCasts.count(value.name) != 0;
        int level = 0;
        if (isInterface(value)) {
            level = 3;
        } else if (value.type.dtype == DataType::Float) {
            level = castOutput ? 1 : 2;
        }
        return {level, -v};
    }

    void chooseNames() {
        std::unordered_map<ValueId, std::vector<ValueId>> sets;
        for (ValueId v = 0; v < static_cast<ValueId>(mGraph.values().size()); ++v) sets[root(v)].push_back(v);
        for (const auto& [top, members] : sets) {
            if (members.size() == 1 && !mAnalysis.retyped(members.front())) continue;  // untouched
            const ValueId best = *std::max_element(members.begin(), members.end(),
                                                   [&](ValueId a, ValueId b) { return rank(a) < rank(b); });
            std::string name = mGraph.value(best).name;
            if (std::get<0>(rank(best)) == 0 && name.size() > kFp16Suffix.size() && name.ends_with(kFp16Suffix)) {
                const std::string base = name.substr(0, name.size() - kFp16Suffix.size());
                if (mNames.insert(base).second) name = base;  // free: the name the export renamed away from
            }
            for (ValueId member : members)
                if (mGraph.value(member).name != name) mRename[mGraph.value(member).name] = name;
        }
    }

    const std::string& finalName(const std::string& name) const {
        auto it = mRename.find(name);
        return it == mRename.end() ? name : it->second;
    }

    // Node inputs here and in nested subgraphs (which may read outer tensors), and subgraph outputs.
    void renameReferences(onnx::NodeProto& node) const {
        for (auto& input : *node.mutable_input()) input = finalName(input);
        for (auto& attr : *node.mutable_attribute()) {
            auto renameGraph = [&](onnx::GraphProto& graph) {
                for (auto& inner : *graph.mutable_node()) renameReferences(inner);
                for (auto& output : *graph.mutable_output()) output.set_name(finalName(output.name()));
            };
            if (attr.has_g()) renameGraph(*attr.mutable_g());
            for (auto& g : *attr.mutable_graphs()) renameGraph(g);
        }
    }

    Status rewriteNodes() {
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        for (auto& node : *mProto.mutable_node()) {
            if (isCastProto(node) && node.output_size() > 0 && mRemovedCasts.count(node.output(0))) continue;
            if (std::any_of(node.output().begin(), node.output().end(),
                            [&](const std::string& out) { return mRetyped.count(out) != 0; }))
                QL_RETURN_IF_ERROR(retypeAttributes(node));
            for (auto& output : *node.mutable_output()) output = finalName(output);
            renameReferences(node);
            *nodes.Add() = std::move(node);
        }
        mProto.mutable_node()->Swap(&nodes);
        return Status::ok();
    }

    void rewriteInitializers() {
        google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
        for (auto& init : *mProto.mutable_initializer()) {
            if (mDroppedInitializers.count(init.name())) continue;
            init.set_name(finalName(init.name()));
            *kept.Add() = std::move(init);
        }
        mProto.mutable_initializer()->Swap(&kept);
    }

    void retypeInfo(onnx::ValueInfoProto& info) const {
        if (mRetyped.count(info.name()) && info.type().has_tensor_type())
            info.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        info.set_name(finalName(info.name()));
    }

    // Graph inputs and outputs keep their names (they win every merge); value_info keeps one entry per final name.
    void rewriteValueInfo() {
        std::unordered_set<std::string> described;
        for (auto* list : {mProto.mutable_input(), mProto.mutable_output()})
            for (auto& info : *list) {
                retypeInfo(info);
                described.insert(info.name());
            }
        google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
        for (auto& info : *mProto.mutable_value_info()) {
            retypeInfo(info);
            if (described.insert(info.name()).second) *kept.Add() = std::move(info);
        }
        mProto.mutable_value_info()->Swap(&kept);
    }

    onnx::GraphProto& mProto;
    const Graph& mGraph;
    Float16Analysis mAnalysis;
    DisjointSets mSets;                                    // tensors merged through removed Casts
    std::vector<bool> mInterface;                          // per root: the merged tensor holds graph I/O
    std::unordered_set<std::string> mRetyped;              // float16 tensors that become float32
    std::unordered_set<std::string> mRemovedCasts;         // by output
    std::unordered_set<std::string> mDroppedInitializers;  // float16 copies of float32 initializers
    std::unordered_map<std::string, int> mInitializers;    // index in mProto, by name
    std::unordered_set<std::string> mNames;                // every name in use, and every name chosen
    std::unordered_map<std::string, std::string> mRename;  // old name -> name of the merged tensor
};

}  // namespace

bool hasFloat16Islands(const Graph& graph) {
    const Float16Analysis analysis(graph);
    const auto& nodes = graph.nodes();
    return std::any_of(nodes.begin(), nodes.end(), [&](const Node& n) { return analysis.island(n); }) &&
           std::any_of(nodes.begin(), nodes.end(), [&](const Node& n) { return analysis.removable(n); });
}

Result<Float16Removal> removeFloat16Islands(onnx::GraphProto& proto, const Graph& graph) {
    IslandRemover remover(proto, graph);
    return remover.run();
}

}  // namespace ql
