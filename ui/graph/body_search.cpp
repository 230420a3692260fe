#include "ui/graph/body_search.h"

#include <algorithm>

#include "core/model/subgraph_model.h"
#include "ui/graph/graph_search.h"

namespace ql::ui {

namespace {

void search(const Graph& graph, const QString& text, std::vector<BodyStep>& path, size_t limit,
            std::vector<BodyMatch>& found) {
    for (const Node& owner : graph.nodes()) {
        // then_branch first, as the view lists bodies (exporters write else_branch first too).
        std::vector<const SubgraphInfo*> bodies;
        for (const SubgraphInfo& info : owner.subgraphs) bodies.push_back(&info);
        std::stable_partition(bodies.begin(), bodies.end(),
                              [](const SubgraphInfo* info) { return info->attribute == "then_branch"; });
        for (const SubgraphInfo* each : bodies) {
            const SubgraphInfo& info = *each;
            if (found.size() >= limit) return;
            auto body = buildSubgraphModel(graph, owner, info.attribute);
            if (!body) continue;
            path.push_back({owner.name, info.attribute});
            for (const Node& node : body->graph.nodes()) {
                if (found.size() >= limit) break;
                if (nodeMatches(node.name, node.opType, text)) found.push_back({path, node.name});
            }
            search(body->graph, text, path, limit, found);
            path.pop_back();
        }
    }
}

}  // namespace

std::vector<BodyMatch> searchBodies(const Graph& graph, const QString& text, size_t limit) {
    std::vector<BodyMatch> found;
    if (text.isEmpty()) return found;
    std::vector<BodyStep> path;
    search(graph, text, path, limit, found);
    return found;
}

}  // namespace ql::ui
