#pragma once
// The bodies of If, Loop and Scan nodes are graphs TensorRT builds too (as conditional and loop layers): each body
// is linted as a graph of its own, its outer-scope values as inputs, and its findings are reported on the
// control-flow node with the path inside it ("If_3/then_branch/Conv_1"). A body is linted with its plan
// (PrecisionPlan::bodies) when it has one, else as float (unless it carries Q/DQ of its own); a planned body's
// weighted layers count in the coverage as the export counts them (quantizesBody).
#include <vector>

#include "core/lint/finding.h"
#include "core/lint/linter.h"

namespace ql {

// Appends the findings of every subgraph body of `graph` (nested ones too) to `report`, and the coverage of the
// bodies `plan` quantizes to its coverage. `run` lints one graph with one plan (the linter's rule loop, without the
// bodies: this function walks them).
using LintGraphFn = LintReport (*)(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options);
void lintSubgraphs(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options, LintGraphFn run,
                   LintReport& report);

}  // namespace ql
