#include "core/lint/linter.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/lint/lint_context.h"
#include "core/lint/rule_registry.h"
#include "core/lint/subgraph_lint.h"

namespace ql {

namespace {

LintCoverage coverageOf(const LintContext& context, const std::vector<Finding>& findings) {
    LintCoverage coverage;
    std::set<NodeId> fallenBack;
    for (const Finding* f : fallbackFindings(findings)) {
        const Node& node = context.graph().node(f->node);
        if (!isWeightedLayer(node) || !context.int8Planned(node.id)) continue;
        fallenBack.insert(node.id);
        coverage.fallbacks.push_back({node.id, f->ruleId, f->message});
    }
    for (const Node& node : context.graph().nodes()) {
        if (!isWeightedLayer(node)) continue;
        ++coverage.weightedLayers;
        if (fallenBack.count(node.id) != 0) continue;
        if (context.int8Effective(node.id))
            ++coverage.int8Layers;
        else if (context.int8Planned(node.id))
            coverage.fallbacks.push_back({node.id, "", context.plan().reason(node.id)});
    }
    return coverage;
}

void sortFindings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity) return a.severity < b.severity;
        return a.node < b.node;
    });
}

// The same rule saying the same thing about the same node (or tensor) once is enough: a rule that meets a node
// twice (through two inputs, or in the graph and again in a subgraph walk) must not list it twice.
void dropDuplicates(std::vector<Finding>& findings) {
    std::set<std::tuple<std::string, NodeId, std::string, std::string, std::string>> seen;
    std::erase_if(findings, [&](const Finding& f) {
        return !seen.emplace(f.ruleId, f.node, f.nodeName, f.tensor, f.message).second;
    });
}

// Runs the rules `wanted` accepts, findings sorted by severity then node, without duplicates.
template <typename Wanted>
std::vector<Finding> runRules(const LintContext& context, Wanted wanted) {
    std::vector<Finding> findings;
    for (const auto& rule : lintRules()) {
        if (!rule->appliesTo(context.version()) || !wanted(*rule)) continue;
        try {
            rule->check(context, findings);
        } catch (const std::exception& e) {  // a bug in a rule must not take the whole lint (or the app) down
            Finding f;
            f.ruleId = std::string(rule->info().id);
            f.severity = Severity::Info;
            f.message = std::string("this rule could not check the model (internal error: ") + e.what() + ")";
            f.fix = "report this model to the QuantLens developers";
            findings.push_back(std::move(f));
        }
    }
    sortFindings(findings);
    dropDuplicates(findings);
    return findings;
}

// Every rule the options do not ignore.
std::vector<Finding> runUnignoredRules(const LintContext& context, const LintOptions& options) {
    return runRules(context,
                    [&](const LintRule& rule) { return !options.ignoredRules.contains(std::string(rule.info().id)); });
}

// One graph's findings and coverage, without its bodies.
LintReport lintOneGraph(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options) {
    const LintContext context(graph, plan, options);
    LintReport report;
    report.findings = runUnignoredRules(context, options);
    report.coverage = coverageOf(context, report.findings);
    return report;
}

}  // namespace

std::vector<const Finding*> fallbackFindings(const std::vector<Finding>& findings) {
    std::vector<const Finding*> out;
    std::set<NodeId> seen;
    for (const Finding& f : findings)
        if (f.causesFallback && f.node != kNoId && seen.insert(f.node).second) out.push_back(&f);
    std::sort(out.begin(), out.end(), [](const Finding* a, const Finding* b) { return a->node < b->node; });
    return out;
}

bool isCalibrationRule(std::string_view ruleId) {
    return ruleId.starts_with("calib-");
}

bool isLatencyRule(std::string_view ruleId) {
    return ruleId == "trt-int8-island-slower" || ruleId == "trt-fp16-island-reformats" || ruleId == "trt-int8-no-gain";
}

LintReport lint(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options) {
    LintReport report = lintOneGraph(graph, plan, options);
    lintSubgraphs(graph, plan, options, &lintOneGraph, report);
    sortFindings(report.findings);
    dropDuplicates(report.findings);
    return report;
}

std::vector<Finding> calibrationFindings(const Graph& graph, const PrecisionPlan& plan,
                                         const CalibrationDiagnosis& diagnosis, TrtVersion version) {
    LintOptions options;
    options.version = version;
    options.calibration = &diagnosis;
    const LintContext context(graph, plan, options);
    return runRules(context, [](const LintRule& rule) { return isCalibrationRule(rule.info().id); });
}

}  // namespace ql
