#include "ui/body_graphs.h"

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

std::string bodyNodeLabel(const BodyPath& path, const std::string& node) {
    static constexpr const char* kStep = " \u25B8 ";  // ▸
    std::string label;
    for (const BodyStep& step : path) label += step.owner + kStep + step.attribute + kStep;
    return label + node;
}

}  // namespace ql::ui
