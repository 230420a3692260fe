#pragma once
// The element type named in an engine report's tensor description. 8.x/10.x write one string per tensor,
// "Format/Datatype": "Thirty-two wide channel vectorized row major Int8 format", "Row major linear FP32",
// "Channel major FP16 format where channel % 8 == 0", or for Myelin (kgen) layers just "Half", "Float", "Int8";
// 11.x writes a "DataType" ("Float", "Half", "Int8", "BFloat16", "FP8", ...) next to a "Format".
#include <string_view>

#include "core/engine/engine_report.h"

namespace ql {

// The type a format or data type string names; Unknown when it names none (e.g. "N/A due to dynamic shapes").
EnginePrecision precisionFromFormat(std::string_view text);

}  // namespace ql
