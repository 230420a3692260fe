#pragma once
// Moving the axes a normalization reduces over to the end (and back), so that it works on contiguous rows:
// MeanVarianceNormalization over any set of axes.
#include <cstdint>
#include <vector>

#include "core/exec/tensor.h"

namespace ql {

struct AxesToEnd {
    std::vector<int64_t> perm, inverse;  // perm: kept axes then reduced ones
    int64_t rows = 1, length = 1;        // kept elements, reduced elements
};
// `reduced[d]` says whether axis d is reduced.
AxesToEnd axesToEnd(const Shape& shape, const std::vector<bool>& reduced);
// `t` with its axes permuted (output axis i is input axis perm[i]); `t` itself when perm is the identity.
Tensor permutedTensor(const Tensor& t, const std::vector<int64_t>& perm);

}  // namespace ql
