#include "core/engine/report_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/common/json_depth.h"

namespace ql {

Result<nlohmann::json> readReportJson(const std::string& path, const std::string& option) {
    const std::string label = option + " " + path;
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return notFound(label + ": no such file");
    // A folder opens on Linux and reads as nothing.
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path, error)) return ioError(label + ": cannot read the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
        return invalidArgument(label + ": the file is empty; write it again with trtexec");
    QL_RETURN_IF_ERROR(checkJsonDepth(text.str(), label));
    try {
        return nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error& e) {
        // A report cut short (trtexec killed, disk full) ends inside a value: say so rather than quote the parser.
        const bool truncated = e.byte >= text.str().size();
        return invalidArgument(label + ": " +
                               (truncated ? "the file ends before the JSON does (truncated?)"
                                          : "not valid JSON at byte " + std::to_string(e.byte)) +
                               "; write it again with trtexec");
    } catch (const nlohmann::json::exception& e) {  // a number past double's range (out_of_range.406)
        return invalidArgument(label + ": not valid JSON (" + e.what() + "); write it again with trtexec");
    }
}

}  // namespace ql
