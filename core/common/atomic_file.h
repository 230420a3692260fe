#pragma once
// Writes a file atomically: the content goes to a temporary file beside the target, which is renamed over
// the target only when everything was written. On error or cancel nothing half-written is left behind.
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "core/common/status.h"

namespace ql {

// `write` fills the stream; if it returns an error, or the stream fails, the target is left untouched.
Status writeFileAtomically(const std::string& path, const std::function<Status(std::ostream&)>& write);
Status writeFileAtomically(const std::string& path, std::string_view content);

}  // namespace ql
