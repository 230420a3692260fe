#pragma once
// The one table of TensorRT lint rules.
#include <memory>
#include <string_view>
#include <vector>

#include "core/lint/lint_rule.h"

namespace ql {

const std::vector<std::unique_ptr<LintRule>>& lintRules();
const LintRule* findLintRule(std::string_view id);  // nullptr when unknown

}  // namespace ql
