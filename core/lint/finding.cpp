#include "core/lint/finding.h"

namespace ql {

const char* severityName(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            return "info";
    }
    return "info";
}

std::optional<Severity> parseSeverity(const std::string& text) {
    for (Severity s : {Severity::Error, Severity::Warning, Severity::Info})
        if (text == severityName(s)) return s;
    return std::nullopt;
}

}  // namespace ql
