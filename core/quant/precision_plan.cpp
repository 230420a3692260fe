#include "core/quant/precision_plan.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "core/common/atomic_file.h"
#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/model/subgraph_model.h"
#include "core/quant/default_placement.h"

namespace ql {
namespace {

constexpr const char* kFormat = "quantlens-plan";
constexpr int kVersion = 1;

Result<Precision> precisionFromJson(const nlohmann::json& value, const std::string& what, const std::string& label) {
    const std::optional<Precision> p = value.is_string() ? parsePrecision(value.get<std::string>()) : std::nullopt;
    if (!p)
        return invalidArgument(label + ": " + what + " is " + value.dump() + "; use \"fp32\", \"fp16\" or \"int8\"");
    return *p;
}

Status checkHeader(const nlohmann::json& json, const std::string& label) {
    if (!json.is_object()) return invalidArgument(label + ": a precision plan is a JSON object");
    const auto format = json.find("format");
    if (format == json.end() || !format->is_string() || format->get<std::string>() != kFormat)
        return invalidArgument(label + ": not a QuantLens precision plan (\"format\" must be \"" + kFormat + "\")");
    const auto version = json.find("version");
    if (version == json.end() || !version->is_number_integer() || version->get<int>() != kVersion) {
        return unsupported(label + ": unsupported plan version " +
                           (version == json.end() ? "(none)" : version->dump()) + "; this QuantLens reads version " +
                           std::to_string(kVersion));
    }
    if (!json.contains("nodes") || !json["nodes"].is_object())
        return invalidArgument(label + ": the plan lacks a \"nodes\" object mapping node names to precisions");
    return Status::ok();
}

// "tensor_methods": {"<tensor>": "<method>"}; every tensor must be a value of the graph.
Status readTensorMethods(const Graph& graph, const nlohmann::json& json, const std::string& label,
                         PrecisionPlan& plan) {
    const auto it = json.find("tensor_methods");
    if (it == json.end()) return Status::ok();
    if (!it->is_object())
        return invalidArgument(label + ": \"tensor_methods\" must map tensor names to calibration methods");
    for (const auto& [tensor, value] : it->items()) {
        if (!graph.findValue(tensor))
            return notFound(label + ": \"tensor_methods\" names tensor '" + tensor +
                            "', which the model does not have");
        const std::optional<CalibrationMethod> method =
            value.is_string() ? parseAmaxMethod(value.get<std::string>()) : std::nullopt;
        if (!method)
            return invalidArgument(label + ": the method of tensor '" + tensor + "' is " + value.dump() +
                                   "; use \"minmax\", \"percentile\", \"entropy\" or \"mse\"");
        plan.setTensorMethod(tensor, method);
    }
    return Status::ok();
}

// "reasons": {"<node>": "why"}: the placement's or the tuner's note of each node (placementNote).
Status readReasons(const Graph& graph, const nlohmann::json& json, const std::string& label, PrecisionPlan& plan) {
    const auto it = json.find("reasons");
    if (it == json.end()) return Status::ok();
    if (!it->is_object()) return invalidArgument(label + ": \"reasons\" must map node names to text");
    for (const auto& [name, value] : it->items()) {
        const std::optional<NodeId> node = graph.findNode(name);
        if (!node)
            return notFound(label + ": \"reasons\" names node '" + name +
                            "', which the model does not have; was the plan written for another model?");
        if (!value.is_string())
            return invalidArgument(label + ": the reason of node '" + name + "' is " + value.dump() + "; use a string");
        plan.setPlacementNote(*node, value.get<std::string>());
    }
    return Status::ok();
}

// "nodes": {"<node>": "<precision>"}; the names the graph lacks are collected in `unknown`.
Status readNodes(const Graph& graph, const nlohmann::json& nodes, const std::string& label, PrecisionPlan& plan,
                 std::vector<std::string>& unknown) {
    for (const auto& [name, value] : nodes.items()) {
        const std::optional<NodeId> node = graph.findNode(name);
        if (!node) {
            unknown.push_back(name);
            continue;
        }
        QL_ASSIGN_OR_RETURN(Precision p, precisionFromJson(value, "the precision of node '" + name + "'", label));
        plan.setRequested(*node, p);
    }
    return Status::ok();
}

Status unknownNodes(const std::vector<std::string>& unknown, const std::string& label) {
    std::string names;
    for (size_t i = 0; i < unknown.size() && i < 10; ++i) names += (i ? ", '" : "'") + unknown[i] + "'";
    if (unknown.size() > 10) names += " and " + std::to_string(unknown.size() - 10) + " more";
    return notFound(label + ": the plan names " + std::to_string(unknown.size()) +
                    " node(s) the model does not have: " + names + "; was it written for another model?");
}

Status readPlanContent(const Graph& graph, const nlohmann::json& json, const std::string& label, PrecisionPlan& plan);

// "default" of a plan or a body's plan: the precision of every node "nodes" does not list; absent: the default
// placement.
Result<PrecisionPlan> initialPlan(const Graph& graph, const nlohmann::json& json, const std::string& label) {
    if (!json.contains("default")) return defaultPrecisionPlan(graph);
    QL_ASSIGN_OR_RETURN(Precision all, precisionFromJson(json["default"], "\"default\"", label));
    return PrecisionPlan(graph, all);
}

// "bodies": {"<node>": {"<attribute>": <plan content>}}: each body's plan read like a plan.
Status readBodies(const Graph& graph, const nlohmann::json& json, const std::string& label, PrecisionPlan& plan) {
    const auto it = json.find("bodies");
    if (it == json.end()) return Status::ok();
    if (!it->is_object())
        return invalidArgument(label + ": \"bodies\" must map If/Loop/Scan node names to their bodies' plans");
    for (const auto& [name, attributes] : it->items()) {
        const std::optional<NodeId> id = graph.findNode(name);
        if (!id)
            return notFound(label + ": \"bodies\" names node '" + name +
                            "', which the model does not have; was the plan written for another model?");
        if (!attributes.is_object())
            return invalidArgument(label + ": \"bodies\" of node '" + name +
                                   "' must map its graph attributes (then_branch, else_branch, body) to plans");
        for (const auto& [attribute, content] : attributes.items()) {
            const std::string where = label + " (bodies > " + name + " > " + attribute + ")";
            if (!content.is_object()) return invalidArgument(where + ": a body's plan is a JSON object");
            QL_ASSIGN_OR_RETURN(const SubgraphModel body, buildSubgraphModel(graph, graph.node(*id), attribute));
            PrecisionPlan& planned = plan.ensureBody(name, attribute, body.graph);
            QL_ASSIGN_OR_RETURN(planned, initialPlan(body.graph, content, where));
            QL_RETURN_IF_ERROR(readPlanContent(body.graph, content, where, planned));
        }
    }
    return Status::ok();
}

// What a plan and a body's plan both have: "nodes", "tensor_methods", "reasons", "bodies". `plan` holds the
// precisions of the nodes left unlisted (initialPlan).
Status readPlanContent(const Graph& graph, const nlohmann::json& json, const std::string& label, PrecisionPlan& plan) {
    std::vector<std::string> unknown;
    if (const auto nodes = json.find("nodes"); nodes != json.end()) {
        if (!nodes->is_object()) return invalidArgument(label + ": \"nodes\" must map node names to precisions");
        QL_RETURN_IF_ERROR(readNodes(graph, *nodes, label, plan, unknown));
    }
    QL_RETURN_IF_ERROR(readTensorMethods(graph, json, label, plan));
    if (!unknown.empty()) return unknownNodes(unknown, label);
    QL_RETURN_IF_ERROR(readReasons(graph, json, label, plan));
    return readBodies(graph, json, label, plan);
}

}  // namespace

const char* precisionName(Precision precision) {
    switch (precision) {
        case Precision::Fp32:
            return "fp32";
        case Precision::Fp16:
            return "fp16";
        case Precision::Int8:
            return "int8";
    }
    return "fp32";
}

const char* upperPrecisionName(Precision precision) {
    switch (precision) {
        case Precision::Fp32:
            return "FP32";
        case Precision::Fp16:
            return "FP16";
        case Precision::Int8:
            return "INT8";
    }
    return "FP32";
}

std::optional<Precision> parsePrecision(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (Precision p : {Precision::Fp32, Precision::Fp16, Precision::Int8})
        if (lower == precisionName(p)) return p;
    return std::nullopt;
}

PrecisionPlan::PrecisionPlan(const Graph& graph, Precision precision)
    : mEntries(graph.nodes().size(), Entry{precision, precision, {}, {}}) {}

void PrecisionPlan::setRequested(NodeId node, Precision precision, std::string note) {
    entry(node) = Entry{precision, precision, {}, std::move(note)};
}

void PrecisionPlan::setEffective(NodeId node, Precision precision, const std::string& reason) {
    Entry& e = entry(node);
    e.effective = precision;
    if (!reason.empty()) e.reason += (e.reason.empty() ? "" : "; ") + reason;
}

std::optional<CalibrationMethod> PrecisionPlan::tensorMethod(const std::string& tensor) const {
    const auto it = mTensorMethods.find(tensor);
    return it == mTensorMethods.end() ? std::nullopt : std::optional(it->second);
}

void PrecisionPlan::setTensorMethod(const std::string& tensor, std::optional<CalibrationMethod> method) {
    if (method && *method != CalibrationMethod::Auto)
        mTensorMethods[tensor] = *method;
    else
        mTensorMethods.erase(tensor);
}

void PrecisionPlan::applyPolicies(const Graph& graph, std::span<const PrecisionPolicy* const> policies) {
    for (Entry& e : mEntries) e = Entry{e.requested, e.requested, {}, std::move(e.note)};
    for (const PrecisionPolicy* policy : policies) policy->apply(graph, *this);
}

nlohmann::json PrecisionPlan::toJson(const Graph& graph) const {
    nlohmann::json nodes = nlohmann::json::object(), effective = nlohmann::json::object(),
                   placement = nlohmann::json::object();
    for (const Node& n : graph.nodes()) {
        const Entry& e = entry(n.id);
        nodes[n.name] = precisionName(e.requested);
        if (e.effective != e.requested || !e.reason.empty())
            effective[n.name] = {{"precision", precisionName(e.effective)}, {"reason", e.reason}};
        if (!e.note.empty()) placement[n.name] = e.note;
    }
    nlohmann::json json = {{"format", kFormat}, {"version", kVersion}, {"nodes", nodes}};
    if (!effective.empty()) json["effective"] = effective;
    if (!placement.empty()) {
        json["placement"] = placement;
        json["reasons"] = placement;
    }
    for (const auto& [tensor, method] : mTensorMethods) json["tensor_methods"][tensor] = amaxMethodKey(method);
    for (const BodyPlan& b : mBodies) {
        const std::optional<NodeId> id = graph.findNode(b.node);
        if (!id) continue;
        // The body was built when its plan was made; it builds again from the same node.
        auto body = buildSubgraphModel(graph, graph.node(*id), b.attribute);
        if (!body) continue;
        nlohmann::json content = b.plan.toJson(body->graph);
        content.erase("format");
        content.erase("version");
        json["bodies"][b.node][b.attribute] = std::move(content);
    }
    return json;
}

void runFp16LayersInFp32(PrecisionPlan& plan, const std::string& reason) {
    for (NodeId id = 0; id < static_cast<NodeId>(plan.size()); ++id)
        if (plan.effective(id) == Precision::Fp16) plan.setEffective(id, Precision::Fp32, reason);
    for (BodyPlan& body : plan.bodies()) runFp16LayersInFp32(body.plan, reason);
}

bool quantizesBody(const PrecisionPlan& body) {
    for (NodeId id = 0; id < static_cast<NodeId>(body.size()); ++id)
        if (body.effective(id) != Precision::Fp32) return true;
    return std::any_of(body.bodies().begin(), body.bodies().end(),
                       [](const BodyPlan& nested) { return quantizesBody(nested.plan); });
}

const PrecisionPlan* PrecisionPlan::body(const std::string& node, const std::string& attribute) const {
    for (const BodyPlan& b : mBodies)
        if (b.node == node && b.attribute == attribute) return &b.plan;
    return nullptr;
}

PrecisionPlan* PrecisionPlan::body(const std::string& node, const std::string& attribute) {
    return const_cast<PrecisionPlan*>(std::as_const(*this).body(node, attribute));
}

PrecisionPlan& PrecisionPlan::ensureBody(const std::string& node, const std::string& attribute,
                                         const Graph& bodyGraph) {
    if (PrecisionPlan* existing = body(node, attribute)) return *existing;
    mBodies.push_back(BodyPlan{node, attribute, PrecisionPlan(bodyGraph, Precision::Fp32)});
    return mBodies.back().plan;
}

Result<PrecisionPlan> PrecisionPlan::fromJson(const Graph& graph, const nlohmann::json& json,
                                              const std::string& label) {
    QL_RETURN_IF_ERROR(checkHeader(json, label));
    QL_ASSIGN_OR_RETURN(PrecisionPlan plan, initialPlan(graph, json, label));
    QL_RETURN_IF_ERROR(readPlanContent(graph, json, label, plan));
    return plan;
}

Result<PrecisionPlan> PrecisionPlan::load(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(const nlohmann::json json, readJsonFile(path, "precision plan"));
    // A project saved by the window keeps its plan inline (ui/project_file.h).
    if (json.is_object() && memberString(json, "format") == "quantlens-project") {
        const auto section = json.find("plan");
        if (section == json.end() || !section->is_object())
            return invalidArgument(path + ": this project has no precision plan");
        return fromJson(graph, *section, path + " (plan)");
    }
    return fromJson(graph, json, path);
}

Status PrecisionPlan::save(const Graph& graph, const std::string& path) const {
    if (graph.nodes().size() != mEntries.size())
        return internalError(path + ": the plan was made for a graph with another node count");
    return writeFileAtomically(path, toJson(graph).dump(2) + "\n");
}

}  // namespace ql
