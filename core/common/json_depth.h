#pragma once
// A guard run before parsing JSON that other people and tools wrote (CALIB.json, PLAN.json, .qlproj, ONNX Runtime
// tables, trtexec reports).
#include <cstddef>
#include <string>
#include <string_view>

#include "core/common/status.h"

namespace ql {

// JSON nested deeper than this is refused before it is parsed. No file QuantLens reads nests beyond ~6 levels
// (project -> calibration -> activations -> entry -> histogram -> counts), while nlohmann::json copies, compares
// and dumps values recursively: a file of 10^5 '[' (100 KB) would overflow the stack, a crash rather than an error.
inline constexpr size_t kMaxJsonDepth = 256;

// An error naming `label` when arrays and objects in `text` nest deeper than kMaxJsonDepth. Brackets inside
// strings do not count. Only the depth is checked: the parser still reports what else is wrong.
Status checkJsonDepth(std::string_view text, const std::string& label);

}  // namespace ql
