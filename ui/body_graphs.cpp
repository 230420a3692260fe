#include "ui/body_graphs.h"

#include "core/model/body_path.h"
#include "core/model/fp16_form.h"

namespace ql::ui {

namespace {

void addBodies(const Graph& graph, const BodyPath& around, std::vector<BodyGraph>& out) {
    for (const Node& node : graph.nodes()) {
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute);
            if (!body) continue;
            BodyGraph entry{around, node.id, std::move(body).value(), {}};
            entry.path.push_back({node.name, subgraph.attribute});
            addBodies(entry.body.graph, entry.path, entry.bodies);
            out.push_back(std::move(entry));
        }
    }
}

}  // namespace

std::vector<BodyGraph> buildBodyGraphs(const Graph& graph) {
    std::vector<BodyGraph> bodies;
    addBodies(graph, {}, bodies);
    return bodies;
}

const BodyGraph* findBodyGraph(const std::vector<BodyGraph>& bodies, const BodyPath& path) {
    const std::vector<BodyGraph>* level = &bodies;
    const BodyGraph* found = nullptr;
    for (const BodyStep& step : path) {
        found = nullptr;
        for (const BodyGraph& body : *level)
            if (body.path.back() == step) found = &body;
        if (!found) return nullptr;
        level = &found->bodies;
    }
    return found;
}

std::vector<BodyNodeRef> bodyNodesOfOp(const std::vector<BodyGraph>& bodies, const std::string& opType) {
    std::vector<BodyNodeRef> refs;
    for (const BodyGraph& body : bodies) {
        const Graph& graph = body.body.graph;
        for (const Node& node : graph.nodes())
            if (node.opType == opType && hasPrecisionChoice(graph, node)) refs.push_back({body.path, node.id});
        std::vector<BodyNodeRef> nested = bodyNodesOfOp(body.bodies, opType);
        refs.insert(refs.end(), nested.begin(), nested.end());
    }
    return refs;
}

const PrecisionPlan* bodyPlan(const PrecisionPlan& plan, const BodyPath& path) {
    const PrecisionPlan* at = &plan;
    for (const BodyStep& step : path)
        if (!(at = at->body(step.owner, step.attribute))) return nullptr;
    return path.empty() ? nullptr : at;
}

PrecisionPlan* ensureBodyPlan(PrecisionPlan& plan, const std::vector<BodyGraph>& bodies, const BodyPath& path) {
    PrecisionPlan* at = &plan;
    BodyPath prefix;
    for (const BodyStep& step : path) {
        prefix.push_back(step);
        const BodyGraph* body = findBodyGraph(bodies, prefix);
        if (!body) return nullptr;
        at = &at->ensureBody(step.owner, step.attribute, body->body.graph);
    }
    return path.empty() ? nullptr : at;
}

std::string bodyPathPrefix(const BodyPath& path) {
    std::string prefix;
    for (const BodyStep& step : path) prefix += bodyPathStep(step.owner, step.attribute);
    return prefix;
}

std::string bodyNodeLabel(const BodyPath& path, const std::string& node) {
    static constexpr const char* kStep = " \u25B8 ";  // ▸
    std::string label;
    for (const BodyStep& step : path) label += step.owner + kStep + step.attribute + kStep;
    return label + node;
}

}  // namespace ql::ui
