#pragma once
// JSON text for machines. Names in ONNX files are not guaranteed to be UTF-8 (protobuf 2 does not check),
// so invalid bytes are replaced (U+FFFD) instead of throwing.
//
// Members of files other tools wrote are read with memberString/memberInt: json.value(key, fallback) throws when the
// member has another type ({"format": 1}), which fuzz_precision_plan turned into an abort.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ql {

inline std::string dumpJson(const nlohmann::json& j, int indent = 2) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The member `key` of `object` when it is a string, else `fallback` (also when `object` is not an object).
inline std::string memberString(const nlohmann::json& object, const char* key, const std::string& fallback = {}) {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// The member `key` of `object` when it is an integer, else `fallback`.
inline int64_t memberInt(const nlohmann::json& object, const char* key, int64_t fallback) {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

}  // namespace ql
