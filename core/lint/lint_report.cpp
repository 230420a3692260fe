#include "core/lint/lint_report.h"

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ql {

namespace {

// What the coverage summary calls the fallbacks no lint rule made (LayerFallback::ruleId empty).
constexpr const char* kPlanDecision = "the plan's effective precision";

const std::string& fallbackNodeName(const Graph& graph, const LayerFallback& fb) {
    return fb.nodeName.empty() ? graph.node(fb.node).name : fb.nodeName;
}

}  // namespace

nlohmann::json findingToJson(const Finding& f) {
    // A finding on no node (about the build command, say) has null "node" and "op", so readers need not guess
    // what an empty name means.
    const bool onNode = f.node != kNoId;
    nlohmann::json j = {{"rule", f.ruleId},
                        {"severity", severityName(f.severity)},
                        {"node", onNode ? nlohmann::json(f.nodeName) : nlohmann::json(nullptr)},
                        {"op", onNode ? nlohmann::json(f.opType) : nlohmann::json(nullptr)},
                        {"message", f.message},
                        {"fix", f.fix}};
    if (!f.tensor.empty()) j["tensor"] = f.tensor;
    return j;
}

std::string findingToText(const Finding& f) {
    const std::string where = f.node == kNoId ? std::string() : f.nodeName + " (" + f.opType + "): ";
    std::string text = "  [" + f.ruleId + "] " + where + f.message + "\n";
    if (!f.fix.empty()) text += "      fix: " + f.fix + "\n";
    return text;
}

nlohmann::json toJson(const LintReport& report, const Graph& graph, TrtVersion version) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : report.findings) findings.push_back(findingToJson(f));
    nlohmann::json fallbacks = nlohmann::json::array();
    for (const LayerFallback& fb : report.coverage.fallbacks) {
        // "rule" is null for a decision of the plan's (no lint rule made it).
        fallbacks.push_back({{"node", fallbackNodeName(graph, fb)},
                             {"op", fb.nodeName.empty() ? graph.node(fb.node).opType : fb.opType},
                             {"rule", fb.ruleId.empty() ? nlohmann::json(nullptr) : nlohmann::json(fb.ruleId)},
                             {"reason", fb.reason}});
    }
    return {{"trt", trtVersionName(version)},
            {"findings", std::move(findings)},
            {"coverage",
             {{"int8_layers", report.coverage.int8Layers},
              {"weighted_layers", report.coverage.weightedLayers},
              {"fallbacks", std::move(fallbacks)}}}};
}

std::string coverageSummary(const LintCoverage& coverage) {
    std::map<std::string, int> perRule;
    for (const LayerFallback& fb : coverage.fallbacks) ++perRule[fb.ruleId.empty() ? kPlanDecision : fb.ruleId];
    std::ostringstream out;
    out << coverage.int8Layers << " of " << coverage.weightedLayers << " weighted layers run INT8; "
        << coverage.fallbacks.size() << " fall back";
    const char* separator = ": ";
    for (const auto& [rule, count] : perRule) {
        out << separator << rule << " (" << count << ")";
        separator = ", ";
    }
    return out.str();
}

std::string toText(const LintReport& report, const Graph& graph, TrtVersion version) {
    std::map<Severity, int> counts;
    for (const Finding& f : report.findings) ++counts[f.severity];
    std::ostringstream out;
    out << "TensorRT " << trtVersionName(version) << " lint: " << counts[Severity::Error] << " error(s), "
        << counts[Severity::Warning] << " warning(s), " << counts[Severity::Info] << " info\n";
    for (Severity severity : {Severity::Error, Severity::Warning, Severity::Info}) {
        if (counts[severity] == 0) continue;
        out << "\n" << severityName(severity) << ":\n";
        for (const Finding& f : report.findings) {
            if (f.severity != severity) continue;
            out << findingToText(f);
        }
    }
    out << "\n" << coverageSummary(report.coverage) << "\n";
    for (const LayerFallback& fb : report.coverage.fallbacks)
        out << "  " << fallbackNodeName(graph, fb) << ": " << (fb.ruleId.empty() ? fb.reason : fb.ruleId) << "\n";
    return out.str();
}

}  // namespace ql
