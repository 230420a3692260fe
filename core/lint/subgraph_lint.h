#pragma once
// The bodies of If, Loop and Scan nodes are graphs TensorRT builds too (as conditional and loop layers): each body
// is linted as a graph of its own, its outer-scope values as inputs, and its findings are reported on the
// control-flow node with the path inside it ("If_3/then_branch/Conv_1"). QuantLens does not quantize inside bodies,
// so a body is linted as float unless it carries Q/DQ of its own.
#include <vector>

#include "core/lint/finding.h"
#include "core/lint/linter.h"

namespace ql {

// Appends the findings of every subgraph body of `graph` (nested ones too) to `findings`. `run` lints one graph
// with one plan (the linter's rule loop, without the bodies: this function walks them).
using LintGraphFn = std::vector<Finding> (*)(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options);
void lintSubgraphs(const Graph& graph, const LintOptions& options, LintGraphFn run, std::vector<Finding>& findings);

}  // namespace ql
