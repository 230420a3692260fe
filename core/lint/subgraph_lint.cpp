#include "core/lint/subgraph_lint.h"

#include <optional>
#include <string>

#include "core/model/body_path.h"
#include "core/model/subgraph_model.h"

namespace ql {

namespace {

// Bodies nest; a model nesting deeper than this is linted to this depth.
constexpr int kMaxDepth = 8;

void lintBodies(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options, LintGraphFn run,
                const Node* owner, const std::string& prefix, int depth, LintReport& report) {
    if (depth >= kMaxDepth) return;
    for (const Node& node : graph.nodes()) {
        const Node& reportOn = owner != nullptr ? *owner : node;
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            const std::string path = prefix + bodyPathStep(node.name, subgraph.attribute);
            auto body = buildSubgraphModel(graph, node, subgraph.attribute, OuterInitializers::Copied);
            if (!body) continue;  // a malformed body: the ONNX checker's diagnostics (inspect) name it
            // Float unless planned, or carrying Q/DQ of its own (then the rules follow those, as on the main graph).
            const PrecisionPlan* planned = plan.body(node.name, subgraph.attribute);
            std::optional<PrecisionPlan> unplanned;
            const PrecisionPlan& bodyPlan = planned != nullptr && planned->size() == body->graph.nodes().size()
                                                ? *planned
                                                : unplanned.emplace(body->graph, Precision::Fp32);
            LintReport inner = run(body->graph, bodyPlan, options);
            // A body counts where it runs other than float: planned so, or carrying Q/DQ of its own (a written model).
            if (quantizesBody(bodyPlan) || !body->graph.qdqLinks().empty()) {
                report.coverage.weightedLayers += inner.coverage.weightedLayers;
                report.coverage.int8Layers += inner.coverage.int8Layers;
                for (LayerFallback fb : inner.coverage.fallbacks) {
                    if (fb.nodeName.empty()) {
                        fb.nodeName = body->graph.node(fb.node).name;
                        fb.opType = body->graph.node(fb.node).opType;
                    }
                    fb.nodeName = path + fb.nodeName;
                    fb.node = reportOn.id;
                    report.coverage.fallbacks.push_back(std::move(fb));
                }
            }
            for (Finding f : inner.findings) {
                f.nodeName = path + f.nodeName;
                f.message = "in " + path + ": " + f.message;
                f.node = reportOn.id;
                f.opType = reportOn.opType;
                f.causesFallback = false;
                report.findings.push_back(std::move(f));
            }
            lintBodies(body->graph, bodyPlan, options, run, &reportOn, path, depth + 1, report);
        }
    }
}

}  // namespace

void lintSubgraphs(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options, LintGraphFn run,
                   LintReport& report) {
    LintOptions bodyOptions = options;
    bodyOptions.insideSubgraph = true;
    lintBodies(graph, plan, bodyOptions, run, nullptr, "", 0, report);
}

}  // namespace ql
