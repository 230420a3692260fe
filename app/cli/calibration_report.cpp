#include "app/cli/calibration_report.h"

#include "core/lint/lint_report.h"
#include "core/lint/linter.h"

namespace ql::cli {

Result<CalibrationReport> calibrationReport(const Graph& graph, const PrecisionPlan& plan,
                                            const CalibrationResult& calibration, TrtVersion version) {
    CalibrationReport report;
    QL_ASSIGN_OR_RETURN(report.diagnosis, diagnoseCalibration(graph, plan, calibration));
    report.findings = calibrationFindings(graph, plan, report.diagnosis, version);
    return report;
}

std::string calibrationFindingsText(const std::vector<Finding>& findings) {
    if (findings.empty()) return "calibration diagnosis: no finding\n";
    std::string text = "calibration diagnosis: " + std::to_string(findings.size()) + " finding(s)\n";
    for (const Finding& f : findings) text += findingToText(f);
    return text;
}

nlohmann::json calibrationReportJson(const Graph& graph, const CalibrationReport& report) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : report.findings) findings.push_back(findingToJson(f));
    return {{"findings", std::move(findings)}, {"tensors", diagnosisToJson(graph, report.diagnosis)}};
}

}  // namespace ql::cli
