#include "core/model/subgraph_model.h"

#include <onnx/onnx_pb.h>

#include <unordered_set>

#include "core/model/external_data.h"
#include "core/model/graph_builder.h"

namespace ql {

namespace {

void addNames(const onnx::GraphProto& graph, std::unordered_set<std::string>& defined) {
    for (const auto& input : graph.input()) defined.insert(input.name());
    for (const auto& init : graph.initializer()) defined.insert(init.name());
    for (const auto& sparse : graph.sparse_initializer()) defined.insert(sparse.values().name());
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) defined.insert(output);
}

void setType(const TensorType& type, onnx::TypeProto& out) {
    auto* tensor = out.mutable_tensor_type();
    tensor->set_elem_type(static_cast<int32_t>(type.dtype));
    if (!type.hasShape) return;
    auto* shape = tensor->mutable_shape();
    for (const Dim& d : type.dims) {
        auto* dim = shape->add_dim();
        if (d.known())
            dim->set_dim_value(d.size);
        else if (!d.symbol.empty())
            dim->set_dim_param(d.symbol);
    }
}

}  // namespace

SubgraphModel::SubgraphModel() = default;
SubgraphModel::~SubgraphModel() = default;
SubgraphModel::SubgraphModel(SubgraphModel&&) noexcept = default;
SubgraphModel& SubgraphModel::operator=(SubgraphModel&&) noexcept = default;

std::vector<std::string> outerScopeNames(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> defined;
    addNames(graph, defined);
    std::vector<std::string> names;
    std::unordered_set<std::string> seen;
    auto use = [&](const std::string& name) {
        if (!name.empty() && !defined.contains(name) && seen.insert(name).second) names.push_back(name);
    };
    for (const auto& node : graph.node()) {
        for (const auto& input : node.input()) use(input);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g())
                for (const auto& name : outerScopeNames(attr.g())) use(name);
            for (const auto& sub : attr.graphs())
                for (const auto& name : outerScopeNames(sub)) use(name);
        }
    }
    for (const auto& output : graph.output()) use(output.name());
    return names;
}

onnx::ModelProto subgraphModelProto(const Graph& outer, const onnx::GraphProto& body, OuterScopeTypes types,
                                    OuterInitializers initializers) {
    onnx::ModelProto model;
    model.set_ir_version(onnx::IR_VERSION);
    for (const auto& [domain, version] : outer.opsets()) {
        auto* opset = model.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(version);
    }
    onnx::GraphProto& graph = *model.mutable_graph();
    graph = body;
    for (const std::string& name : outerScopeNames(body)) {
        if (initializers == OuterInitializers::Copied) {
            const std::optional<ValueId> value = outer.findValue(name);
            const Initializer* constant = value ? outer.initializerOf(*value) : nullptr;
            if (constant != nullptr && constant->proto != nullptr && !constant->external) {
                *graph.add_initializer() = *constant->proto;
                continue;
            }
        }
        auto* input = graph.add_input();
        input->set_name(name);
        if (types != OuterScopeTypes::FromOuterGraph) continue;
        if (auto value = outer.findValue(name)) setType(outer.value(*value).type, *input->mutable_type());
    }
    return model;
}

Result<SubgraphModel> buildSubgraphModel(const Graph& outer, const Node& node, const std::string& attribute,
                                         OuterInitializers initializers) {
    const onnx::AttributeProto* attr = node.attribute(attribute);
    if (attr == nullptr || !attr->has_g())
        return invalidModel(nodeErrorMessage(node, "has no subgraph attribute '" + attribute + "'"));
    SubgraphModel body;
    body.model = std::make_unique<onnx::ModelProto>(
        subgraphModelProto(outer, attr->g(), OuterScopeTypes::FromOuterGraph, initializers));
    ExternalDataResolver noExternalData{std::string()};
    auto graph = GraphBuilder::build(*body.model, noExternalData);
    if (!graph) return invalidModel(nodeErrorMessage(node, "in " + attribute + ": " + graph.status().message()));
    body.graph = std::move(graph).value();
    return body;
}

}  // namespace ql
