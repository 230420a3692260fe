#include "core/common/status.h"

namespace ql {

const char* statusCodeName(StatusCode code) {
    switch (code) {
        case StatusCode::Ok:
            return "ok";
        case StatusCode::InvalidArgument:
            return "invalid argument";
        case StatusCode::InvalidModel:
            return "invalid model";
        case StatusCode::NotFound:
            return "not found";
        case StatusCode::Unsupported:
            return "unsupported";
        case StatusCode::IoError:
            return "I/O error";
        case StatusCode::Cancelled:
            return "cancelled";
        case StatusCode::Internal:
            return "internal error";
    }
    return "unknown";
}

Status Status::withContext(const std::string& context) const {
    if (isOk() || context.empty()) return *this;
    return {mCode, context + ": " + mMessage};
}

}  // namespace ql
