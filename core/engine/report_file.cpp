#include "core/engine/report_file.h"

#include "core/common/json_file.h"

namespace ql {

Result<nlohmann::json> readReportJson(const std::string& path, const std::string& option) {
    auto json = readJsonFile(path, "trtexec report", option + " " + path);
    if (!json && json.status().code() == StatusCode::InvalidArgument)
        return invalidArgument(json.status().message() + "; write it again with trtexec");
    return json;
}

}  // namespace ql
