#include "core/export/input_folding.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/common/atomic_file.h"
#include "core/data/npy.h"
#include "core/exec/tensor_proto.h"

namespace ql {

FoldedModel::FoldedModel() = default;
FoldedModel::~FoldedModel() = default;
FoldedModel::FoldedModel(FoldedModel&&) noexcept = default;
FoldedModel& FoldedModel::operator=(FoldedModel&&) noexcept = default;

namespace {

std::string inputNames(const onnx::GraphProto& graph) {
    std::set<std::string> initializers;
    for (const auto& init : graph.initializer()) initializers.insert(init.name());
    std::string names;
    for (const auto& input : graph.input())
        if (!initializers.count(input.name())) names += (names.empty() ? "" : ", ") + input.name();
    return names.empty() ? "none" : names;
}

// The declared element type and dims (-1: symbolic) of a graph input.
struct DeclaredInput {
    int32_t elemType = 0;
    bool hasShape = false;
    std::vector<int64_t> dims;
};

DeclaredInput declared(const onnx::ValueInfoProto& input) {
    DeclaredInput d;
    const auto& tensor = input.type().tensor_type();
    d.elemType = tensor.elem_type();
    d.hasShape = tensor.has_shape();
    for (const auto& dim : tensor.shape().dim()) d.dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
    return d;
}

bool shapeAccepted(const DeclaredInput& d, const Shape& shape) {
    if (!d.hasShape) return true;
    if (d.dims.size() != shape.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i)
        if (d.dims[i] >= 0 && d.dims[i] != shape[i]) return false;
    return true;
}

// Ancestors of `value` in `graph`, in graph order; nullopt when one reads a graph input (not constant) other than
// those of `allowed` (their names are added to `reached`).
std::optional<std::vector<int>> constantAncestry(const onnx::GraphProto& graph, const std::string& value,
                                                 const std::set<std::string>& allowed = {},
                                                 std::set<std::string>* reached = nullptr) {
    std::map<std::string, int> producer;
    for (int i = 0; i < graph.node_size(); ++i)
        for (const auto& out : graph.node(i).output()) producer[out] = i;
    std::set<std::string> initializers, inputs;
    for (const auto& init : graph.initializer()) initializers.insert(init.name());
    for (const auto& input : graph.input())
        if (!initializers.count(input.name())) inputs.insert(input.name());
    std::set<int> needed;
    std::vector<std::string> pending{value};
    while (!pending.empty()) {
        const std::string name = pending.back();
        pending.pop_back();
        if (name.empty() || initializers.count(name)) continue;
        if (allowed.count(name)) {
            if (reached) reached->insert(name);
            continue;
        }
        if (inputs.count(name)) return std::nullopt;
        const auto it = producer.find(name);
        if (it == producer.end()) return std::nullopt;  // an outer-scope or undefined value
        if (!needed.insert(it->second).second) continue;
        const onnx::NodeProto& node = graph.node(it->second);
        for (const auto& attr : node.attribute())
            if (attr.has_g() || attr.graphs_size() > 0) return std::nullopt;  // keep it simple: no bodies
        for (const auto& in : node.input()) pending.push_back(in);
    }
    return std::vector<int>(needed.begin(), needed.end());
}

// The boolean value of an If's condition computed from constants, by running those nodes alone.
Result<std::optional<bool>> constantCondition(const onnx::ModelProto& model, const std::string& cond) {
    const onnx::GraphProto& graph = model.graph();
    const auto ancestry = constantAncestry(graph, cond);
    if (!ancestry) return std::optional<bool>();
    onnx::ModelProto part;
    part.set_ir_version(model.ir_version());
    *part.mutable_opset_import() = model.opset_import();
    onnx::GraphProto* g = part.mutable_graph();
    g->set_name("condition");
    std::set<std::string> used;
    for (int i : *ancestry) {
        *g->add_node() = graph.node(i);
        for (const auto& in : graph.node(i).input()) used.insert(in);
    }
    for (const auto& init : graph.initializer())
        if (used.count(init.name()) || init.name() == cond) *g->add_initializer() = init;
    onnx::ValueInfoProto* out = g->add_output();
    out->set_name(cond);
    out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    const std::string bytes = part.SerializeAsString();
    LoadOptions options;
    options.runChecker = false;
    QL_ASSIGN_OR_RETURN(auto loaded, Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())),
                                                          "the condition '" + cond + "'", options));
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(loaded->graph()));
    QL_ASSIGN_OR_RETURN(NamedTensors outputs, executor->run({}));
    if (outputs.size() != 1 || outputs[0].second.elementCount() != 1 || outputs[0].second.dtype() != DataType::Bool)
        return invalidArgument("the condition '" + cond + "' is not one boolean");
    return std::optional<bool>(*outputs[0].second.data<uint8_t>() != 0);
}

// Renames the values a subgraph reads from enclosing graphs (names in `renamed`, unless the subgraph defines them).
void renameOuterReferences(onnx::GraphProto& body, const std::map<std::string, std::string>& renamed) {
    std::set<std::string> own;
    for (const auto& input : body.input()) own.insert(input.name());
    for (const auto& init : body.initializer()) own.insert(init.name());
    for (const auto& node : body.node())
        for (const auto& out : node.output()) own.insert(out);
    std::map<std::string, std::string> visible;
    for (const auto& [from, to] : renamed)
        if (!own.count(from)) visible[from] = to;
    if (visible.empty()) return;
    for (auto& node : *body.mutable_node()) {
        for (auto& in : *node.mutable_input())
            if (const auto it = visible.find(in); it != visible.end()) in = it->second;
        for (auto& attr : *node.mutable_attribute()) {
            if (attr.has_g()) renameOuterReferences(*attr.mutable_g(), visible);
            for (auto& g : *attr.mutable_graphs()) renameOuterReferences(g, visible);
        }
    }
    for (auto& out : *body.mutable_output())
        if (const auto it = visible.find(out.name()); it != visible.end()) out.set_name(it->second);
}

// The nodes that replace `ifNode`: the taken branch's, those of its names the main graph uses already prefixed with
// the If's, its outputs renamed to the If's outputs (an Identity where a branch output is not
// computed inside the branch, or is given twice).
// Every value and node name of `graph` and the bodies inside it, but those of `skipped`'s bodies.
void collectNames(const onnx::GraphProto& graph, const onnx::NodeProto* skipped, std::set<std::string>& values,
                  std::set<std::string>& nodes) {
    for (const auto& input : graph.input()) values.insert(input.name());
    for (const auto& init : graph.initializer()) values.insert(init.name());
    for (const auto& node : graph.node()) {
        nodes.insert(node.name());
        for (const auto& out : node.output()) values.insert(out);
        if (&node == skipped) continue;
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectNames(attr.g(), nullptr, values, nodes);
            for (const auto& body : attr.graphs()) collectNames(body, nullptr, values, nodes);
        }
    }
}

// `name`, or with `prefix` (and a number) when the main graph uses it already: the branch's names stay readable.
std::string freeName(const std::string& name, const std::string& prefix, std::set<std::string>& used) {
    std::string candidate = used.count(name) ? prefix + name : name;
    for (int i = 1; used.count(candidate); ++i) candidate = prefix + name + "_" + std::to_string(i);
    used.insert(candidate);
    return candidate;
}

std::vector<onnx::NodeProto> inlinedBranch(onnx::GraphProto& main, const onnx::NodeProto& ifNode,
                                           const onnx::GraphProto& branch, const std::string& prefix) {
    std::set<std::string> usedValues, usedNodes;
    collectNames(main, &ifNode, usedValues, usedNodes);
    std::map<std::string, std::string> renamed;
    std::set<std::string> produced;
    for (const auto& node : branch.node())
        for (const auto& out : node.output())
            if (!out.empty()) produced.insert(out);
    std::set<std::string> taken;
    for (int i = 0; i < branch.output_size() && i < ifNode.output_size(); ++i) {
        const std::string& name = branch.output(i).name();
        if (produced.count(name) && !taken.count(name)) {
            renamed[name] = ifNode.output(i);
            taken.insert(name);
        }
    }
    for (const std::string& name : produced)
        if (!renamed.count(name)) renamed[name] = freeName(name, prefix, usedValues);
    for (const auto& init : branch.initializer()) {
        renamed[init.name()] = freeName(init.name(), prefix, usedValues);
        onnx::TensorProto* copy = main.add_initializer();
        *copy = init;
        copy->set_name(renamed[init.name()]);
    }
    std::vector<onnx::NodeProto> nodes(branch.node().begin(), branch.node().end());
    const auto rename = [&](std::string& name) {
        if (const auto it = renamed.find(name); it != renamed.end()) name = it->second;
    };
    for (auto& node : nodes) {
        for (auto& in : *node.mutable_input()) rename(in);
        for (auto& out : *node.mutable_output()) rename(out);
        for (auto& attr : *node.mutable_attribute()) {  // bodies nested in the branch read its values too
            if (attr.has_g()) renameOuterReferences(*attr.mutable_g(), renamed);
            for (auto& g : *attr.mutable_graphs()) renameOuterReferences(g, renamed);
        }
        if (!node.name().empty()) node.set_name(freeName(node.name(), prefix, usedNodes));
    }
    for (const auto& info : branch.value_info()) {
        const auto it = renamed.find(info.name());
        if (it == renamed.end()) continue;
        onnx::ValueInfoProto* copy = main.add_value_info();
        *copy = info;
        copy->set_name(it->second);
    }
    for (int i = 0; i < branch.output_size() && i < ifNode.output_size(); ++i) {
        const std::string& name = branch.output(i).name();
        if (renamed.count(name) && renamed.at(name) == ifNode.output(i)) continue;
        onnx::NodeProto identity;
        identity.set_op_type("Identity");
        identity.set_name(freeName(prefix + "output_" + std::to_string(i), prefix, usedNodes));
        identity.add_input(renamed.count(name) ? renamed.at(name) : name);
        identity.add_output(ifNode.output(i));
        nodes.push_back(std::move(identity));
    }
    return nodes;
}

// Drops nodes no graph output depends on, then initializers and value_info nothing reads.
void dropDeadNodes(onnx::GraphProto& graph) {
    std::set<std::string> live;
    for (const auto& out : graph.output()) live.insert(out.name());
    std::vector<bool> keep(static_cast<size_t>(graph.node_size()), false);
    const auto collectReads = [&](const onnx::GraphProto& g, auto& self) -> void {
        for (const auto& node : g.node()) {
            for (const auto& in : node.input()) live.insert(in);
            for (const auto& attr : node.attribute()) {
                if (attr.has_g()) self(attr.g(), self);
                for (const auto& body : attr.graphs()) self(body, self);
            }
        }
        for (const auto& out : g.output()) live.insert(out.name());
    };
    for (int i = graph.node_size() - 1; i >= 0; --i) {
        const auto& node = graph.node(i);
        const bool needed = std::any_of(node.output().begin(), node.output().end(),
                                        [&](const std::string& out) { return !out.empty() && live.count(out); });
        if (!needed) continue;
        keep[static_cast<size_t>(i)] = true;
        for (const auto& in : node.input()) live.insert(in);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectReads(attr.g(), collectReads);
            for (const auto& body : attr.graphs()) collectReads(body, collectReads);
        }
    }
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (int i = 0; i < graph.node_size(); ++i)
        if (keep[static_cast<size_t>(i)]) *nodes.Add() = graph.node(i);
    graph.mutable_node()->Swap(&nodes);
    const auto unused = [&](const auto& item) { return !live.count(item.name()); };
    auto* inits = graph.mutable_initializer();
    inits->erase(std::remove_if(inits->begin(), inits->end(), unused), inits->end());
    auto* infos = graph.mutable_value_info();
    infos->erase(std::remove_if(infos->begin(), infos->end(), unused), infos->end());
}

Status fixInput(onnx::ModelProto& model, const std::string& name, const Tensor& value, const std::string& file) {
    onnx::GraphProto* graph = model.mutable_graph();
    auto* inputs = graph->mutable_input();
    const auto it =
        std::find_if(inputs->begin(), inputs->end(), [&](const onnx::ValueInfoProto& v) { return v.name() == name; });
    if (it == inputs->end())
        return invalidArgument(name + ": not an input of " + file + " (its inputs: " + inputNames(*graph) + ")");
    const DeclaredInput d = declared(*it);
    const onnx::TensorProto proto = tensorToProto(name, value);
    if (d.elemType != 0 && d.elemType != proto.data_type())
        return invalidArgument(name + ": the value's element type (" + std::to_string(proto.data_type()) +
                               ") is not the input's (" + std::to_string(d.elemType) + ", ONNX TensorProto numbering)");
    if (!shapeAccepted(d, value.shape()))
        return invalidArgument(name + ": a value of " + std::to_string(value.shape().size()) +
                               " dims does not fit the input's declared shape");
    inputs->erase(it);
    *graph->add_initializer() = proto;
    return Status::ok();
}

Result<Tensor> scalarTensor(const std::string& name, int32_t elemType, const std::vector<int64_t>& dims,
                            const std::string& text) {
    double value = 0;
    try {
        size_t used = 0;
        value = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(value)) throw std::invalid_argument(text);
    } catch (const std::exception&) {
        return invalidArgument(name + "=" + text + ": not a number (give a number, or a .npy file)");
    }
    Shape shape;
    for (int64_t d : dims) {
        if (d > 1) return invalidArgument(name + ": the input holds more than one value; give a .npy file");
        shape.push_back(1);
    }
    switch (elemType) {
        case onnx::TensorProto::INT64:
            return Tensor::fromVector<int64_t>(DataType::Int64, shape, {static_cast<int64_t>(value)});
        case onnx::TensorProto::INT32:
            return Tensor::fromVector<int32_t>(DataType::Int32, shape, {static_cast<int32_t>(value)});
        case onnx::TensorProto::FLOAT:
            return Tensor::fromVector<float>(DataType::Float, shape, {static_cast<float>(value)});
        case onnx::TensorProto::DOUBLE:
            return Tensor::fromVector<double>(DataType::Double, shape, {value});
        case onnx::TensorProto::BOOL:
            return Tensor::fromVector<uint8_t>(DataType::Bool, shape, {static_cast<uint8_t>(value != 0)});
        default:
            return invalidArgument(name + ": an input of element type " + std::to_string(elemType) +
                                   " takes its value from a .npy file");
    }
}

}  // namespace

std::vector<std::string> inputsDecidingIfs(const Model& model) {
    const onnx::GraphProto& graph = model.proto().graph();
    // Asked on every load: a graph without an If (most) costs no name sets.
    if (std::none_of(graph.node().begin(), graph.node().end(),
                     [](const onnx::NodeProto& node) { return node.op_type() == "If"; }))
        return {};
    std::set<std::string> initializers, inputs, deciding;
    for (const auto& init : graph.initializer()) initializers.insert(init.name());
    for (const auto& input : graph.input())
        if (!initializers.count(input.name())) inputs.insert(input.name());
    for (const auto& node : graph.node()) {
        if (node.op_type() != "If" || node.input_size() == 0) continue;
        std::set<std::string> reached;
        if (constantAncestry(graph, node.input(0), inputs, &reached)) deciding.insert(reached.begin(), reached.end());
    }
    std::vector<std::string> ordered;  // in the graph's input order
    for (const auto& input : graph.input())
        if (deciding.count(input.name())) ordered.push_back(input.name());
    return ordered;
}

Result<NamedTensors> parseFixedInputs(const Model& model, const std::string& text) {
    NamedTensors fixed;
    std::stringstream items(text);
    std::string item;
    const onnx::GraphProto& graph = model.proto().graph();
    while (std::getline(items, item, ',')) {
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            return invalidArgument("'" + item + "': expected NAME=VALUE (a number) or NAME=FILE.npy");
        const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
        const auto input = std::find_if(graph.input().begin(), graph.input().end(),
                                        [&](const onnx::ValueInfoProto& v) { return v.name() == name; });
        if (input == graph.input().end())
            return invalidArgument(name + ": not an input of " + model.fileName() +
                                   " (its inputs: " + inputNames(graph) + ")");
        if (value.ends_with(".npy")) {
            QL_ASSIGN_OR_RETURN(Tensor tensor, readNpy(value));
            fixed.emplace_back(name, std::move(tensor));
            continue;
        }
        const DeclaredInput d = declared(*input);
        QL_ASSIGN_OR_RETURN(Tensor tensor, scalarTensor(name, d.elemType, d.dims, value));
        fixed.emplace_back(name, std::move(tensor));
    }
    if (fixed.empty()) return invalidArgument("no input to fix: expected NAME=VALUE,...");
    return fixed;
}

Result<FoldedModel> foldFixedInputs(const Model& model, const NamedTensors& fixed) {
    FoldedModel folded;
    folded.model = std::make_unique<onnx::ModelProto>(model.proto());
    onnx::ModelProto& proto = *folded.model;
    folded.nodesBefore = static_cast<size_t>(proto.graph().node_size());
    for (const auto& [name, value] : fixed) QL_RETURN_IF_ERROR(fixInput(proto, name, value, model.fileName()));
    // Fold one If at a time: a taken branch may hold the condition of a later one.
    for (bool changed = true; changed;) {
        changed = false;
        onnx::GraphProto* graph = proto.mutable_graph();
        for (int i = 0; i < graph->node_size(); ++i) {
            const onnx::NodeProto& ifNode = graph->node(i);  // valid until the node list is rebuilt below
            if (ifNode.op_type() != "If" || !(ifNode.domain().empty() || ifNode.domain() == "ai.onnx")) continue;
            QL_ASSIGN_OR_RETURN(const auto cond, constantCondition(proto, ifNode.input(0)));
            if (!cond) continue;
            const std::string branchName = *cond ? "then_branch" : "else_branch";
            const auto attr =
                std::find_if(ifNode.attribute().begin(), ifNode.attribute().end(),
                             [&](const onnx::AttributeProto& a) { return a.name() == branchName && a.has_g(); });
            if (attr == ifNode.attribute().end())
                return invalidArgument("Node (" + ifNode.name() + ") Op (If): no " + branchName + " to take");
            const std::string label = ifNode.name().empty() ? "If_" + std::to_string(i) : ifNode.name();
            std::vector<onnx::NodeProto> nodes = inlinedBranch(*graph, ifNode, attr->g(), label + "/");
            google::protobuf::RepeatedPtrField<onnx::NodeProto> rebuilt;
            for (int j = 0; j < graph->node_size(); ++j) {
                if (j != i) {
                    *rebuilt.Add() = graph->node(j);
                    continue;
                }
                for (auto& node : nodes) *rebuilt.Add() = std::move(node);
            }
            graph->mutable_node()->Swap(&rebuilt);
            folded.foldedIfs.push_back(label + " (" + branchName + ")");
            changed = true;
            break;
        }
    }
    dropDeadNodes(*proto.mutable_graph());
    folded.nodesAfter = static_cast<size_t>(proto.graph().node_size());
    return folded;
}

Status saveFoldedModel(const FoldedModel& folded, const std::string& path) {
    const std::string bytes = folded.model->SerializeAsString();
    QL_ASSIGN_OR_RETURN(auto reloaded,
                        Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())), path));
    (void)reloaded;
    return writeFileAtomically(path, bytes);
}

}  // namespace ql
