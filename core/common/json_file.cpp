#include "core/common/json_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/common/json_depth.h"

namespace ql {

namespace {

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 3, column 5: " prefix.
std::string parserReason(const std::string& what) {
    const auto colon = what.find(": ", what.find(']'));
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

Result<nlohmann::json> parseJsonText(std::string_view text, const std::string& label) {
    QL_RETURN_IF_ERROR(checkJsonDepth(text, label));
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // A file cut short (a tool killed, a full disk) ends inside a value: say so rather than quote the parser.
        if (e.byte >= text.size() && text.find_first_not_of(" \t\r\n") != std::string_view::npos)
            return invalidArgument(label + ": not valid JSON: the file ends before the JSON does (truncated?)");
        // e.byte counts the characters read; the last of them (a newline after "tru") is where it went wrong.
        const auto at = std::min(static_cast<size_t>(e.byte > 0 ? e.byte - 1 : 0), text.size());
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
        return invalidArgument(label + ":" + std::to_string(line) + ": not valid JSON (" + parserReason(e.what()) +
                               ")");
    } catch (const nlohmann::json::exception& e) {  // a number past double's range (out_of_range.406)
        return invalidArgument(label + ": not valid JSON (" + parserReason(e.what()) + ")");
    }
}

Result<nlohmann::json> readJsonFile(const std::string& path, const std::string& what, const std::string& label) {
    const std::string name = label.empty() ? path : label;
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return ioError(name + ": no such file");
    // A folder opens on Linux and reads as nothing.
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path, error)) return ioError(name + ": cannot read the " + what);
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
        return invalidArgument(name + ": the file is empty; it should hold the " + what);
    return parseJsonText(text.str(), name);
}

}  // namespace ql
