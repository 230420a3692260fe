#include "core/lint/trt_version.h"

namespace ql {

const char* trtVersionName(TrtVersion version) {
    return version == TrtVersion::Trt86 ? "8.6" : "10.x";
}

std::optional<TrtVersion> parseTrtVersion(const std::string& text) {
    if (text == "8.6" || text == "8") return TrtVersion::Trt86;
    if (text == "10" || text == "10.x" ||
        (text.rfind("10.", 0) == 0 && text.size() > 3 && text.find_first_not_of("0123456789", 3) == std::string::npos))
        return TrtVersion::Trt10;
    return std::nullopt;
}

}  // namespace ql
