#pragma once
// The calibration diagnosis as the commands that hold a calibration print it (calibrate, compare, lint --calib):
// the calib-* findings on the effective plan's quantized tensors (calibration_diagnosis.h).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/lint/finding.h"
#include "core/lint/trt_version.h"
#include "core/quant/calibration_diagnosis.h"

namespace ql::cli {

struct CalibrationReport {
    CalibrationDiagnosis diagnosis;
    std::vector<Finding> findings;  // of the calib-* rules
};

// `plan`: the effective plan (effectivePlan), whose INT8 layers decide which tensors are quantized.
Result<CalibrationReport> calibrationReport(const Graph& graph, const PrecisionPlan& plan,
                                            const CalibrationResult& calibration, TrtVersion version);

// "calibration diagnosis: no finding" or the count and each finding as lint prints it.
std::string calibrationFindingsText(const std::vector<Finding>& findings);
// {"findings": [lint findings], "tensors": [diagnosisToJson]}
nlohmann::json calibrationReportJson(const Graph& graph, const CalibrationReport& report);

}  // namespace ql::cli
