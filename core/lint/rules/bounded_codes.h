#pragma once
// Bounded tensors (core/quant/static_ranges.h) that a QuantizeLinear's scale leaves fewer than kFewCodes INT8
// codes: trt-bounded-range-codes reports them; trt-shared-scale-range leaves such Concat inputs to it, so one
// Concat is not reported twice for one input.
#include <vector>

#include "core/lint/lint_context.h"
#include "core/quant/static_ranges.h"

namespace ql::rules {

// Fewer distinct codes than this (under 3 bits) is a warning; a single code (every value rounds to it) an error.
inline constexpr int kFewCodes = 8;

struct CrushedTensor {
    ValueId value = kNoId;  // the bounded tensor, behind any Q/DQ pair on it
    StaticRange range;
    float scale = 0.0f;
    int64_t zeroPoint = 0;
    int64_t codes = 0;               // distinct codes its bound maps to: 1 when every value rounds to one code
    int64_t lowCode = 0;             // the code of range.lo (the only one when codes == 1)
    int64_t levels = 256;            // the codes of the quantized type
    const Node* quantize = nullptr;  // the QuantizeLinear carrying the scale; nullptr: the export's Concat scale
    const Node* concat = nullptr;    // the Concat whose one scale it is, or nullptr: the tensor's own Q/DQ
    float concatAmax = 0.0f;         // the export's case: the largest calibrated amax of the Concat
};

// Explicit Q/DQ: every per-tensor INT8/UINT8 QuantizeLinear, applied to the tensor it quantizes or, when that is a
// Concat's output (maybe reshaped), to each of the Concat's inputs. A float model with a calibration: the inputs of
// each Concat the plan runs INT8 under the scale the export gives them. One entry per tensor (under the scale
// that leaves it the fewest codes), in the order the QuantizeLinear nodes or Concats come.
std::vector<CrushedTensor> crushedBoundedTensors(const LintContext& context, const StaticRanges& ranges);

}  // namespace ql::rules
