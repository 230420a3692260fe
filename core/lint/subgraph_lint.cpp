#include "core/lint/subgraph_lint.h"

#include <string>

#include "core/model/subgraph_model.h"

namespace ql {

namespace {

// Bodies nest; a model nesting deeper than this is linted to this depth.
constexpr int kMaxDepth = 8;

void lintBodies(const Graph& graph, const LintOptions& options, LintGraphFn run, const Node* owner,
                const std::string& prefix, int depth, std::vector<Finding>& findings) {
    if (depth >= kMaxDepth) return;
    for (const Node& node : graph.nodes()) {
        const Node& reportOn = owner != nullptr ? *owner : node;
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            const std::string path = prefix + node.name + "/" + subgraph.attribute + "/";
            auto body = buildSubgraphModel(graph, node, subgraph.attribute);
            if (!body) continue;  // a malformed body: the ONNX checker's diagnostics (inspect) name it
            // Float unless the body carries Q/DQ of its own (then the rules follow those, as on the main graph).
            const PrecisionPlan plan(body->graph, Precision::Fp32);
            for (Finding f : run(body->graph, plan, options)) {
                f.nodeName = path + f.nodeName;
                f.message = "in " + path + ": " + f.message;
                f.node = reportOn.id;
                f.opType = reportOn.opType;
                f.causesFallback = false;
                findings.push_back(std::move(f));
            }
            lintBodies(body->graph, options, run, &reportOn, path, depth + 1, findings);
        }
    }
}

}  // namespace

void lintSubgraphs(const Graph& graph, const LintOptions& options, LintGraphFn run, std::vector<Finding>& findings) {
    LintOptions bodyOptions = options;
    bodyOptions.insideSubgraph = true;
    lintBodies(graph, bodyOptions, run, nullptr, "", 0, findings);
}

}  // namespace ql
