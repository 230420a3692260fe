#pragma once
// Comparing a computed tensor with an expected one the way ONNX's backend tests do
// (numpy.testing.assert_allclose): |actual - expected| <= atol + rtol * |expected| for floating types,
// exact for integers and bool, NaN equal to NaN.
#include <cstdint>
#include <string>

#include "core/exec/tensor.h"

namespace ql {

struct Tolerance {
    double rtol = 1e-3;
    double atol = 1e-5;
};

struct TensorComparison {
    bool matches = true;
    std::string reason;        // why not, naming the worst element: empty when the tensors match
    double maxAbsError = 0.0;  // over all elements (finite differences only)
    double maxRelError = 0.0;
    int64_t mismatches = 0;
};

TensorComparison compareTensors(const Tensor& expected, const Tensor& actual, const Tolerance& tolerance = {});

// The multi-dimensional position of a flat element index: "[0,2,1]".
std::string elementPosition(const Shape& shape, int64_t index);

}  // namespace ql
