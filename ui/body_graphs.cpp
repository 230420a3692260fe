#include "ui/body_graphs.h"

#include "core/model/fp16_form.h"

namespace ql::ui {

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

std::string bodyNodeLabel(const BodyPath& path, const std::string& node) {
    static constexpr const char* kStep = " \u25B8 ";  // ▸
    std::string label;
    for (const BodyStep& step : path) label += step.owner + kStep + step.attribute + kStep;
    return label + node;
}

}  // namespace ql::ui
