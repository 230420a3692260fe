#pragma once
// A TensorRT lint rule: what it is (id, severity, versions, explanation, source) and a check over the graph and
// the precision plan that appends findings. One rule per file under core/lint/rules/, listed in rule_registry.cpp.
#include <string_view>
#include <vector>

#include "core/lint/finding.h"
#include "core/lint/trt_version.h"

namespace ql {

class LintContext;

struct RuleInfo {
    std::string_view id;           // part of the CLI contract, e.g. "trt-qdq-bias"
    Severity severity;             // the most severe finding the rule can give
    unsigned versions;             // TrtVersionMask bits
    std::string_view explanation;  // one paragraph, for users
    std::string_view source;       // URL or document section
};

class LintRule {
public:
    virtual ~LintRule() = default;
    virtual const RuleInfo& info() const = 0;
    virtual void check(const LintContext& context, std::vector<Finding>& findings) const = 0;
    bool appliesTo(TrtVersion version) const { return (info().versions & versionBit(version)) != 0; }
};

}  // namespace ql
