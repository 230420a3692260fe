#include "core/quant/error_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ql {

std::vector<int64_t> topClasses(const Tensor& output) {
    std::vector<int64_t> classes;
    if (output.rank() == 0 || output.dim(0) == 0) return classes;
    const std::vector<float> v = output.toFloats();
    const size_t rows = static_cast<size_t>(output.dim(0)), width = v.size() / rows;
    for (size_t r = 0; r < rows; ++r) {
        const auto begin = v.begin() + static_cast<std::ptrdiff_t>(r * width);
        classes.push_back(std::max_element(begin, begin + static_cast<std::ptrdiff_t>(width)) - begin);
    }
    return classes;
}

void ErrorAccumulator::add(const Tensor& reference, const Tensor& quantized) {
    if (reference.shape() != quantized.shape()) return;
    add(reference.toFloats(), quantized.toFloats());
}

void ErrorAccumulator::add(std::span<const float> r, std::span<const float> q) {
    if (r.size() != q.size()) return;
    for (size_t i = 0; i < r.size(); ++i) {
        if (!std::isfinite(r[i])) continue;
        // The worst error there is (an FP16 overflow, 0/0 after a norm quantized to 0), not a pair to skip: skipped,
        // an all-NaN output read as exact.
        if (!std::isfinite(q[i])) {
            ++mNonFinite;
            ++mCount;
            continue;
        }
        const double a = r[i], b = q[i], e = a - b;
        mRefSquares += a * a;
        mQuantSquares += b * b;
        mDot += a * b;
        mErrSquares += e * e;
        mMaxAbs = std::max(mMaxAbs, std::abs(e));
        ++mCount;
    }
}

ErrorMetrics ErrorAccumulator::metrics() const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    ErrorMetrics m;
    m.count = mCount;
    m.nonFinite = mNonFinite;
    m.maxAbs = mMaxAbs;
    const int64_t finite = mCount - mNonFinite;  // mse and max_abs: over the finite pairs
    m.mse = finite > 0 ? mErrSquares / static_cast<double>(finite) : 0.0;
    if (mErrSquares == 0.0)
        m.sqnrDb = inf;
    else
        m.sqnrDb = mRefSquares == 0.0 ? -inf : 10.0 * std::log10(mRefSquares / mErrSquares);
    const double norms = std::sqrt(mRefSquares) * std::sqrt(mQuantSquares);
    if (mErrSquares == 0.0)
        m.cosine = 1.0;  // identical (the formula could miss 1 by an ulp)
    else if (norms > 0.0)
        m.cosine = std::clamp(mDot / norms, -1.0, 1.0);
    else
        m.cosine = mRefSquares == mQuantSquares ? 1.0 : 0.0;  // both zero: identical; one zero: unrelated
    if (mNonFinite > 0) {
        m.sqnrDb = -inf;
        m.cosine = 0.0;
    }
    return m;
}

}  // namespace ql
