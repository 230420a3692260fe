#include "core/quant/min_max_observer.h"

namespace ql {

void MinMaxObserver::reset() {
    *this = MinMaxObserver();
}

void MinMaxObserver::observeValues(std::span<const float> values) {
    const FiniteRange r = finiteRange(values);
    mMin = std::min(mMin, r.min);
    mMax = std::max(mMax, r.max);
    mCount += r.finite;
    countNonFinite(r.nonFinite);
}

}  // namespace ql
