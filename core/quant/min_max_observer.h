#pragma once
// Running minimum and maximum of a tensor.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/quant/observer.h"

namespace ql {

class MinMaxObserver final : public Observer {
public:
    void reset() override;
    bool empty() const { return mCount == 0; }
    float min() const { return mCount ? mMin : 0.0f; }
    float max() const { return mCount ? mMax : 0.0f; }
    float amax() const { return std::max(std::fabs(min()), std::fabs(max())); }
    int64_t count() const { return mCount; }  // finite values seen

private:
    void observeValues(std::span<const float> values) override;

    float mMin = std::numeric_limits<float>::infinity();
    float mMax = -std::numeric_limits<float>::infinity();
    int64_t mCount = 0;
};

}  // namespace ql
