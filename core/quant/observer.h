#pragma once
// Observers collect statistics of one tensor over many batches (STYLE rule 12: one observer per tensor,
// made by a Calibrator, never shared). Non-finite values (NaN, Inf) are counted and otherwise ignored.
#include <cstdint>
#include <span>

#include "core/exec/tensor.h"

namespace ql {

// The extremes of the finite values of a span, and how many values were not finite.
struct FiniteRange {
    float min = 0.0f, max = 0.0f;  // +inf / -inf when no value was finite
    int64_t finite = 0, nonFinite = 0;
};
// One vectorisable pass in the common all-finite case (observers run on every activation of every sample).
FiniteRange finiteRange(std::span<const float> values);

class Observer {
public:
    virtual ~Observer() = default;
    // Float, Float16, BFloat16 and Double tensors; other dtypes are ignored (they are never quantized).
    // Float tensors may be in a oneDNN layout (only the multiset of values matters).
    void observe(const Tensor& tensor);
    virtual void reset() = 0;
    int64_t nonFiniteCount() const { return mNonFinite; }

protected:
    virtual void observeValues(std::span<const float> values) = 0;
    void countNonFinite(int64_t n) { mNonFinite += n; }
    void resetNonFinite() { mNonFinite = 0; }

private:
    int64_t mNonFinite = 0;
};

}  // namespace ql
