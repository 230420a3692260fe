#include "core/model/body_graphs.h"

#include "core/model/body_path.h"

namespace ql {

namespace {

void addBodies(const Graph& graph, const BodyPath& around, OuterInitializers initializers,
               std::vector<BodyGraph>& out) {
    for (const Node& node : graph.nodes()) {
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute, initializers);
            if (!body) continue;
            BodyGraph entry{around, node.id, std::move(body).value(), {}};
            entry.path.push_back({node.name, subgraph.attribute});
            addBodies(entry.body.graph, entry.path, initializers, entry.bodies);
            out.push_back(std::move(entry));
        }
    }
}

}  // namespace

std::vector<BodyGraph> buildBodyGraphs(const Graph& graph, OuterInitializers initializers) {
    std::vector<BodyGraph> bodies;
    addBodies(graph, {}, initializers, bodies);
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

std::string bodyPathPrefix(const BodyPath& path) {
    std::string prefix;
    for (const BodyStep& step : path) prefix += bodyPathStep(step.owner, step.attribute);
    return prefix;
}

}  // namespace ql
