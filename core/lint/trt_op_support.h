#pragma once
// Which ONNX operators TensorRT's ONNX parser imports, per TensorRT generation (generated data, see
// gen_trt_op_support.py).
#include <span>
#include <string_view>

#include "core/lint/trt_version.h"

namespace ql {

enum class TrtOpSupport { Yes, No, Absent };  // Absent: the version's table does not list the op

struct TrtOpRow {
    std::string_view op;
    TrtOpSupport trt10;
    TrtOpSupport trt86;
};

std::span<const TrtOpRow> trtOpTable();  // sorted by op
// Support of a default-domain op on a version; Absent when the table does not list it.
TrtOpSupport trtOpSupport(std::string_view op, TrtVersion version);

}  // namespace ql
