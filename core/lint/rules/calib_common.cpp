#include "core/lint/rules/calib_common.h"

#include <cstdio>

namespace ql::rules {

namespace {

std::string formatted(const char* pattern, double value) {
    char text[48];
    std::snprintf(text, sizeof(text), pattern, value);
    return text;
}

}  // namespace

Finding tensorFinding(const LintContext& context, const RuleInfo& rule, const TensorDiagnosis& tensor,
                      Severity severity, std::string message, std::string fix) {
    Finding f = context.finding(rule, context.graph().node(tensor.layer), severity, std::move(message), std::move(fix));
    f.tensor = tensor.tensor;
    return f;
}

std::string percentText(double fraction) {
    return formatted("%.2f%%", 100.0 * fraction);
}

std::string decibelText(double db) {
    return formatted("%.1f dB", db);
}

std::string inUseText(const TensorDiagnosis& t, const CalibrationConfig& config) {
    return std::string(t.methodFromPlan ? "the plan's " : "") + calibrationMethodName(t.method, config) + " (amax " +
           formatted("%.4g", t.amax) + ")";
}

std::string alternativeText(const MethodQuality& m, const CalibrationConfig& config) {
    return calibrationMethodName(m.method, config) + " (amax " + formatted("%.4g", m.amax) + ", clips " +
           percentText(m.expected.clippedFraction) + ") gives " + decibelText(m.expected.sqnrDb);
}

std::string methodFix(const TensorDiagnosis& t, const MethodQuality& best) {
    return lintText("calibrate with --method auto, or keep this tensor's ", amaxMethodKey(best.method),
                    " range: \"tensor_methods\": {\"", t.tensor, "\": \"", amaxMethodKey(best.method),
                    "\"} in the plan (quantlens-cli tune finds such remedies by their effect on the outputs)");
}

}  // namespace ql::rules
