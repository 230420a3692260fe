#pragma once
// The lint report as the CLI prints it: text grouped by severity with a coverage summary, or the JSON contract
// {"findings": [{"rule", "severity", "node", "op", "message", "fix", and "tensor" for the calib-* rules}],
//  ("node" and "op" are null for a finding on no node, such as one about the trtexec command)
//  "coverage": {"int8_layers", "weighted_layers", "fallbacks": [{"node", "op", "rule", "reason"}]}}.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/lint/linter.h"

namespace ql {

nlohmann::json findingToJson(const Finding& finding);
// "  [rule] node (op): message\n      fix: ...\n"; without "node (op): " for a finding on no node.
std::string findingToText(const Finding& finding);
nlohmann::json toJson(const LintReport& report, const Graph& graph, TrtVersion version);
std::string toText(const LintReport& report, const Graph& graph, TrtVersion version);
// "5 of 7 weighted layers run INT8; 2 fall back: trt-grouped-conv-int8-alignment (2)"
std::string coverageSummary(const LintCoverage& coverage);

}  // namespace ql
