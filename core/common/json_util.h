#pragma once
// JSON text for machines. Names in ONNX files are not guaranteed to be UTF-8 (protobuf 2 does not check),
// so invalid bytes are replaced (U+FFFD) instead of throwing.
#include <nlohmann/json.hpp>
#include <string>

namespace ql {

inline std::string dumpJson(const nlohmann::json& j, int indent = 2) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ql
