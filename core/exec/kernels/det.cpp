#include "core/exec/kernels/det.h"

#include <cmath>
#include <utility>

#include "core/exec/kernels/loss_util.h"

namespace ql {

namespace {

double determinant(std::vector<double> a, int64_t m) {
    double det = 1.0;
    auto at = [&](int64_t r, int64_t c) -> double& { return a[static_cast<size_t>(r * m + c)]; };
    for (int64_t col = 0; col < m; ++col) {
        int64_t pivot = col;
        for (int64_t r = col + 1; r < m; ++r)
            if (std::fabs(at(r, col)) > std::fabs(at(pivot, col))) pivot = r;
        if (at(pivot, col) == 0.0) return 0.0;
        if (pivot != col) {
            for (int64_t c = 0; c < m; ++c) std::swap(at(pivot, c), at(col, c));
            det = -det;
        }
        det *= at(col, col);
        for (int64_t r = col + 1; r < m; ++r) {
            const double factor = at(r, col) / at(col, col);
            for (int64_t c = col; c < m; ++c) at(r, c) -= factor * at(col, c);
        }
    }
    return det;
}

}  // namespace

Status DetKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor& x = ctx.input(0);
    if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2))
        return ctx.fail("X must be [..., M, M], not " + shapeString(x.shape()));
    const DataType dtype = x.dtype();
    if (dtype != DataType::Float && dtype != DataType::Double && dtype != DataType::Float16 &&
        dtype != DataType::BFloat16)
        return ctx.fail(std::string("does not support element type ") + dataTypeName(dtype));
    const int64_t m = x.dim(x.rank() - 1), size = m * m, count = size ? x.elementCount() / size : 0;
    std::vector<double> values;
    if (dtype == DataType::Double) {
        values.assign(x.data<double>(), x.data<double>() + x.elementCount());
    } else {
        const std::vector<float> f = x.toFloats();
        values.assign(f.begin(), f.end());
    }
    std::vector<double> dets;
    for (int64_t i = 0; i < count; ++i)
        dets.push_back(determinant({values.begin() + i * size, values.begin() + (i + 1) * size}, m));
    ctx.setOutput(0, floatingTensor(dtype, Shape(x.shape().begin(), x.shape().end() - 2), dets));
    return Status::ok();
}

}  // namespace ql
