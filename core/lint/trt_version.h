#pragma once
// The TensorRT generation a lint targets: rules whose verdict changed between 8.6 and 10.x read it.
#include <optional>
#include <string>

namespace ql {

enum class TrtVersion { Trt86, Trt10 };

// Bit set of the versions a rule applies to.
enum TrtVersionMask : unsigned { kTrt86Only = 1u, kTrt10Only = 2u, kAllTrtVersions = 3u };

inline unsigned versionBit(TrtVersion version) {
    return version == TrtVersion::Trt86 ? kTrt86Only : kTrt10Only;
}
const char* trtVersionName(TrtVersion version);  // "8.6", "10.x"
// Accepts "8.6", "8", "10", "10.x" and 10 minor versions such as "10.8".
std::optional<TrtVersion> parseTrtVersion(const std::string& text);

}  // namespace ql
