#pragma once
// How far a quantized tensor is from its FP32 reference, accumulated over batches (in double, in element
// order, so the same data always gives the same numbers).
#include <cstdint>
#include <span>
#include <vector>

#include "core/exec/tensor.h"

namespace ql {

struct ErrorMetrics {
    double sqnrDb = 0.0;  // 10 log10(sum ref^2 / sum (ref - q)^2); +inf when identical
    double cosine = 1.0;  // cosine similarity of the two tensors seen as vectors
    double mse = 0.0;
    double maxAbs = 0.0;
    int64_t count = 0;      // elements compared (pairs whose FP32 value is not finite are skipped)
    int64_t nonFinite = 0;  // of them, quantized NaN or infinity where FP32 is finite: sqnrDb -inf, cosine 0
};

// The index of the largest value of each row of `output` (rows along axis 0; the first one on ties): the top-1
// class of every sample. Empty for a scalar or an empty first axis.
std::vector<int64_t> topClasses(const Tensor& output);

class ErrorAccumulator {
public:
    // Both tensors are read as float; a shape mismatch is ignored (the pair is skipped).
    void add(const Tensor& reference, const Tensor& quantized);
    // Element pairs in the same order; a size mismatch is ignored.
    void add(std::span<const float> reference, std::span<const float> quantized);
    ErrorMetrics metrics() const;

private:
    double mRefSquares = 0.0, mQuantSquares = 0.0, mDot = 0.0, mErrSquares = 0.0, mMaxAbs = 0.0;
    int64_t mCount = 0, mNonFinite = 0;
};

}  // namespace ql
