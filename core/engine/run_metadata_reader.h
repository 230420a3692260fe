#pragma once
// The other files written beside an engine report, where present:
//   timing     trtexec --exportTimes=FILE: a JSON array with one object per inference ("computeMs", "latencyMs",
//              "h2dMs", "d2hMs", start/end times); summarized as medians.
//   metadata   the build and profiling metadata of TREx's process_engine.py (*.build.metadata.json,
//              *.profile.metadata.json, *.metadata.json): a JSON object of sections ("build_options",
//              "device_information", "performance_summary", ...) whose values are kept as text, "section.key".
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/status.h"

namespace ql {

struct TimingSummary {
    size_t iterations = 0;
    double medianComputeMs = 0.0;
    double meanComputeMs = 0.0;
    std::optional<double> medianLatencyMs;
};

Result<TimingSummary> readTiming(const std::string& path, const std::string& option = "--timing");

// ("build_options.Precision", "FP32+FP16+INT8"), ..., sorted by section and key.
using RunMetadata = std::vector<std::pair<std::string, std::string>>;

Result<RunMetadata> readRunMetadata(const std::string& path, const std::string& option = "--metadata");

}  // namespace ql
