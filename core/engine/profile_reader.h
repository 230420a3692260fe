#pragma once
// Reads the per-layer profile trtexec writes with --exportProfile=FILE: a JSON array whose first entry is
// {"count": N} (the number of profiled inferences), then one entry per layer in execution order:
// {"name", "timeMs" (over all runs), "averageMs" (per inference), "medianMs" (10.x), "percentage"}.
// The profile also names TensorRT's reformat layers ("Reformatting CopyNode for Input Tensor 0 to X") that older
// layer information leaves out; applyProfile() adds them to the report in profile order.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/engine_report.h"

namespace ql {

struct ProfileEntry {
    std::string name;
    double averageMs = 0.0;  // per inference
    std::optional<double> medianMs;
};

Result<std::vector<ProfileEntry>> readProfile(const std::string& path, const std::string& option = "--profile");
Result<std::vector<ProfileEntry>> profileFromJson(const nlohmann::json& json, const std::string& label);

// Sets every layer's time from the profile. An error when most of the profile's layers are not in the report
// (a profile of another engine). `label` names the profile in messages.
Status applyProfile(EngineReport& report, const std::vector<ProfileEntry>& profile, const std::string& label);

}  // namespace ql
