#pragma once
// The axis TensorRT reads for a per-channel weight scale: the DequantizeLinear's `axis` attribute, or 0 when it
// is omitted (TensorRT's parser default; ONNX's default is 1). Shared by the weight-axis rules.
#include <vector>

#include "core/lint/lint_context.h"

namespace ql::rules {

struct WeightAxis {
    std::vector<int64_t> dims;  // of the quantized weight
    int64_t axis = 0;           // normalised (non-negative), as TensorRT reads it; -1 when out of range
    bool explicitAxis = false;  // the axis attribute is written
    int64_t scaleCount = 0;
};

WeightAxis trtWeightAxis(const LintContext& context, const QdqLink& link);

}  // namespace ql::rules
