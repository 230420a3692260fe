#include "core/lint/subgraph_lint.h"

#include <onnx/onnx_pb.h>

#include <set>
#include <string>

#include "core/model/external_data.h"
#include "core/model/graph_builder.h"

namespace ql {

namespace {

// Bodies nest; a model nesting deeper than this is linted to this depth.
constexpr int kMaxDepth = 8;

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

// A model holding `body` alone: the outer graph's opsets, and the values the body reads from the outer scope as
// graph inputs (typed as the outer graph knows them).
onnx::ModelProto bodyModel(const Graph& outer, const onnx::GraphProto& body) {
    onnx::ModelProto model;
    model.set_ir_version(8);
    for (const auto& [domain, version] : outer.opsets()) {
        auto* opset = model.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(version);
    }
    *model.mutable_graph() = body;
    std::set<std::string> defined;
    for (const auto& in : body.input()) defined.insert(in.name());
    for (const auto& init : body.initializer()) defined.insert(init.name());
    for (const auto& node : body.node())
        for (const auto& out : node.output()) defined.insert(out);
    for (const auto& node : body.node()) {
        for (const auto& in : node.input()) {
            if (in.empty() || !defined.insert(in).second) continue;
            auto* input = model.mutable_graph()->add_input();
            input->set_name(in);
            if (auto v = outer.findValue(in)) setType(outer.value(*v).type, *input->mutable_type());
        }
    }
    return model;
}

void lintBodies(const Graph& graph, const LintOptions& options, LintGraphFn run, const Node* owner,
                const std::string& prefix, int depth, std::vector<Finding>& findings) {
    if (depth >= kMaxDepth) return;
    for (const Node& node : graph.nodes()) {
        if (node.subgraphs.empty() || node.proto == nullptr) continue;
        const Node& reportOn = owner != nullptr ? *owner : node;
        for (const auto& attr : node.proto->attribute()) {
            if (!attr.has_g()) continue;
            const std::string path = prefix + node.name + "/" + attr.name() + "/";
            const onnx::ModelProto model = bodyModel(graph, attr.g());
            ExternalDataResolver external("");
            auto body = GraphBuilder::build(model, external);
            if (!body) continue;  // a malformed body: the ONNX checker's diagnostics (inspect) name it
            // Float unless the body carries Q/DQ of its own (then the rules follow those, as on the main graph).
            const PrecisionPlan plan(*body, Precision::Fp32);
            for (Finding f : run(*body, plan, options)) {
                f.nodeName = path + f.nodeName;
                f.message = "in " + path + ": " + f.message;
                f.node = reportOn.id;
                f.opType = reportOn.opType;
                f.causesFallback = false;
                findings.push_back(std::move(f));
            }
            lintBodies(*body, options, run, &reportOn, path, depth + 1, findings);
        }
    }
}

}  // namespace

void lintSubgraphs(const Graph& graph, const LintOptions& options, LintGraphFn run, std::vector<Finding>& findings) {
    lintBodies(graph, options, run, nullptr, "", 0, findings);
}

}  // namespace ql
