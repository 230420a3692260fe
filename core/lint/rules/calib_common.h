#pragma once
// What the calib-* rules share: the finding on a quantized tensor (its first INT8 layer, the tensor named),
// and the wording of a method's amax and expected quality.
#include <string>

#include "core/lint/lint_context.h"

namespace ql::rules {

Finding tensorFinding(const LintContext& context, const RuleInfo& rule, const TensorDiagnosis& tensor,
                      Severity severity, std::string message, std::string fix);
// "entropy (amax 0.96)"; "the plan's minmax (amax 2.18)" when a per-tensor override chose it.
std::string inUseText(const TensorDiagnosis& tensor, const CalibrationConfig& config);
// "minmax (amax 2.18, clips 0.00%) gives 31.2 dB"
std::string alternativeText(const MethodQuality& method, const CalibrationConfig& config);
std::string percentText(double fraction);  // "21.40%"
std::string decibelText(double db);        // "12.3 dB"
// The fix both rules offer: calibrate with auto, or the per-tensor override in the plan.
std::string methodFix(const TensorDiagnosis& tensor, const MethodQuality& best);

}  // namespace ql::rules
