#include "core/exec/tensor_compare.h"

#include <cmath>
#include <sstream>

namespace ql {

namespace {

bool isFloating(DataType dtype) {
    return dtype == DataType::Float || dtype == DataType::Double || dtype == DataType::Float16 ||
           dtype == DataType::BFloat16;
}

std::string describeWorst(const Tensor& expected, int64_t index, double want, double got, int64_t mismatches) {
    std::ostringstream s;
    s.precision(8);
    s << mismatches << " of " << expected.elementCount() << " elements differ; worst at "
      << elementPosition(expected.shape(), index) << ": expected " << want << ", got " << got;
    return s.str();
}

void compareFloating(const Tensor& expected, const Tensor& actual, const Tolerance& tol, TensorComparison& out) {
    const std::vector<float> want = expected.toFloats();
    const std::vector<float> got = actual.toFloats();
    double worstExcess = -1.0;
    int64_t worst = -1;
    for (size_t i = 0; i < want.size(); ++i) {
        const double w = want[i], g = got[i];
        if (std::isnan(w) && std::isnan(g)) continue;
        if (std::isinf(w) || std::isinf(g) || std::isnan(w) || std::isnan(g)) {
            if (w == g) continue;
            ++out.mismatches;
            if (worstExcess < INFINITY) worstExcess = INFINITY, worst = static_cast<int64_t>(i);
            continue;
        }
        const double diff = std::fabs(w - g);
        out.maxAbsError = std::max(out.maxAbsError, diff);
        if (w != 0.0) out.maxRelError = std::max(out.maxRelError, diff / std::fabs(w));
        const double excess = diff - (tol.atol + tol.rtol * std::fabs(w));
        if (excess <= 0.0) continue;
        ++out.mismatches;
        if (excess > worstExcess) worstExcess = excess, worst = static_cast<int64_t>(i);
    }
    if (worst < 0) return;
    out.matches = false;
    std::ostringstream s;
    s.precision(4);
    s << describeWorst(expected, worst, want[static_cast<size_t>(worst)], got[static_cast<size_t>(worst)],
                       out.mismatches)
      << " (max abs error " << out.maxAbsError << ", max rel error " << out.maxRelError << ")";
    out.reason = s.str();
}

void compareExact(const Tensor& expected, const Tensor& actual, TensorComparison& out) {
    const std::vector<int64_t> want = expected.toInt64s();
    const std::vector<int64_t> got = actual.toInt64s();
    int64_t first = -1;
    for (size_t i = 0; i < want.size(); ++i) {
        if (want[i] == got[i]) continue;
        ++out.mismatches;
        if (first < 0) first = static_cast<int64_t>(i);
        out.maxAbsError = std::max(out.maxAbsError, std::fabs(static_cast<double>(want[i] - got[i])));
    }
    if (first < 0) return;
    out.matches = false;
    const auto f = static_cast<size_t>(first);
    out.reason =
        describeWorst(expected, first, static_cast<double>(want[f]), static_cast<double>(got[f]), out.mismatches);
}

}  // namespace

std::string elementPosition(const Shape& shape, int64_t index) {
    Shape position(shape.size(), 0);
    for (size_t d = shape.size(); d-- > 0;) {
        if (shape[d] == 0) break;
        position[d] = index % shape[d];
        index /= shape[d];
    }
    return shapeString(position);
}

TensorComparison compareTensors(const Tensor& expected, const Tensor& actual, const Tolerance& tolerance) {
    TensorComparison out;
    if (expected.dtype() != actual.dtype()) {
        out.matches = false;
        out.reason =
            std::string("type ") + dataTypeName(actual.dtype()) + ", expected " + dataTypeName(expected.dtype());
    } else if (expected.shape() != actual.shape()) {
        out.matches = false;
        out.reason = "shape " + shapeString(actual.shape()) + ", expected " + shapeString(expected.shape());
    } else if (isFloating(expected.dtype())) {
        compareFloating(expected, actual, tolerance, out);
    } else {
        compareExact(expected, actual, out);
    }
    return out;
}

}  // namespace ql
