#include "core/lint/trt_version.h"

#include <cctype>

namespace ql {
namespace {

// "10" or "10." followed by digits (a minor version).
bool isMajor(const std::string& text, const std::string& major) {
    if (text == major || text == major + ".x") return true;
    const std::string prefix = major + ".";
    return text.rfind(prefix, 0) == 0 && text.size() > prefix.size() && std::isdigit(text[prefix.size()]) &&
           text.back() != '.' && text.find_first_not_of("0123456789.", prefix.size()) == std::string::npos;
}

}  // namespace

const char* trtVersionName(TrtVersion version) {
    switch (version) {
        case TrtVersion::Trt86:
            return "8.6";
        case TrtVersion::Trt10:
            return "10.x";
        case TrtVersion::Trt11:
            break;
    }
    return "11.x";
}

int trtMajor(TrtVersion version) {
    switch (version) {
        case TrtVersion::Trt86:
            return 8;
        case TrtVersion::Trt10:
            return 10;
        case TrtVersion::Trt11:
            break;
    }
    return 11;
}

std::optional<TrtVersion> parseTrtVersion(const std::string& text) {
    if (text == "8.6" || text == "8") return TrtVersion::Trt86;
    if (isMajor(text, "10")) return TrtVersion::Trt10;
    if (isMajor(text, "11")) return TrtVersion::Trt11;
    return std::nullopt;
}

const char* trtTypingName(TrtTyping typing) {
    return typing == TrtTyping::Weak ? "weak" : "strong";
}

TrtTyping defaultTyping(TrtVersion version) {
    return version == TrtVersion::Trt86 ? TrtTyping::Weak : TrtTyping::Strong;
}

bool supportsTyping(TrtVersion version, TrtTyping typing) {
    if (version == TrtVersion::Trt86) return typing == TrtTyping::Weak;
    if (version == TrtVersion::Trt11) return typing == TrtTyping::Strong;
    return true;
}

std::string trtTargetName(const TrtTarget& target) {
    return std::string(trtVersionName(target.version)) + ", " +
           (target.typing == TrtTyping::Weak ? "weakly typed" : "strongly typed");
}

}  // namespace ql
