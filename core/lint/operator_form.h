#pragma once
// One verdict on a model in ONNX Runtime's operator form (integer and QLinear* ops, qoperator_import.h), in the CLI
// and the window alike: the file as shipped does not parse in TensorRT (trt-unsupported-op errors, one per operator,
// with the fix), and the analysis continues on the float model it was made from (its float import).
#include <string>
#include <vector>

#include "core/lint/linter.h"

namespace ql {

struct OperatorFormLint {
    std::vector<Finding> findings;  // trt-unsupported-op on the shipped graph's operator-form nodes (node ids: its)
    std::vector<std::string> ops;   // the operators TensorRT cannot parse, in graph order: "ConvInteger", ...
    bool empty() const { return ops.empty(); }
};

// The shipped graph's operator-form ops and findings (none when `options` ignores the rule); empty when it has none.
OperatorFormLint lintOperatorForm(const Graph& shipped, const LintOptions& options);

// "ONNX Runtime operator form (ConvInteger, DynamicQuantizeLinear): TensorRT cannot parse the file as shipped;
// the analysis continues on the float model it was made from"
std::string operatorFormNote(const OperatorFormLint& shipped);

// `report` (of the float import) with the shipped file's findings added, errors first. Their node ids are of the
// shipped graph, so they cause no fallback; a finding the report already has (same rule, node name and message: an
// operator the float import kept) is not repeated.
void addShippedFindings(LintReport& report, const OperatorFormLint& shipped);

}  // namespace ql
