#pragma once
// Reading the JSON files trtexec writes: the error names the file and says what is wrong with it (not found, a
// folder, empty, cut short, not JSON), so a bad or truncated report exits 2 with a useful line.
#include <nlohmann/json.hpp>
#include <string>

#include "core/common/status.h"

namespace ql {

// `option` names what the file is ("--layers"), for the message.
Result<nlohmann::json> readReportJson(const std::string& path, const std::string& option);

}  // namespace ql
