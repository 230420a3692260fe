#pragma once
// Reading JSON that other people and tools wrote (PLAN.json, CALIB.json, .qlproj, ONNX Runtime tables, trtexec
// reports): one reader, so that every file gets the same guards (nesting checked before parsing, no exception
// escapes, a folder or an empty file refused) and the same kind of message.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/common/status.h"

namespace ql {

// Parses `text`; errors start with `label` (a path, or "--layers PATH"). A syntax error names its line
// ("plan.json:3: not valid JSON (...)"), a text that stops inside a value says it looks truncated, and JSON nested
// deeper than kMaxJsonDepth is refused before parsing.
Result<nlohmann::json> parseJsonText(std::string_view text, const std::string& label);

// Reads and parses the file at `path`; `what` names what it should hold in the errors about the file itself
// ("cannot open the precision plan", "the calibration file is empty").
Result<nlohmann::json> readJsonFile(const std::string& path, const std::string& what, const std::string& label = {});

}  // namespace ql
