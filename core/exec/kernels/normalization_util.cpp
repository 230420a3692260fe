#include "core/exec/kernels/normalization_util.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

AxesToEnd axesToEnd(const Shape& shape, const std::vector<bool>& reduced) {
    AxesToEnd a;
    for (int pass = 0; pass < 2; ++pass)
        for (size_t d = 0; d < shape.size(); ++d)
            if (reduced[d] == (pass == 1)) {
                a.perm.push_back(static_cast<int64_t>(d));
                (pass == 1 ? a.length : a.rows) *= shape[d];
            }
    a.inverse.assign(shape.size(), 0);
    for (size_t i = 0; i < a.perm.size(); ++i) a.inverse[static_cast<size_t>(a.perm[i])] = static_cast<int64_t>(i);
    return a;
}

Tensor permutedTensor(const Tensor& t, const std::vector<int64_t>& perm) {
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) return t;
    Shape shape(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) shape[i] = t.dim(static_cast<size_t>(perm[i]));
    Tensor out(t.dtype(), shape);
    permuteCopy(bytesOf(t), t.shape(), perm, bytesOf(out), dataTypeSize(t.dtype()));
    return out;
}

}  // namespace ql
