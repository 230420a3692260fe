#include "core/exec/kernels/softmax.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Op = SoftmaxKernel::Op;

// One softmax over `n` contiguous values.
template <typename T>
void softmaxRow(Op op, const T* x, T* y, int64_t n) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    Eigen::Map<const Array> in(x, n);
    Eigen::Map<Array> out(y, n);
    if (op == Op::Hardmax) {
        Eigen::Index arg = 0;
        in.maxCoeff(&arg);  // the first maximum
        out.setZero();
        out[arg] = T(1);
        return;
    }
    const T m = in.maxCoeff();
    out = (in - m).exp();
    const T sum = out.sum();
    if (op == Op::Softmax)
        out /= sum;
    else
        out = (in - m) - std::log(sum);
}

// Softmax along the middle axis of [outer, n, inner]: each [n, inner] block is an inner x n column-major
// matrix whose rows are the lines to normalize, so every step vectorizes across the inner positions.
template <typename T>
void softmaxStrided(Op op, const T* x, T* y, AxisSplit s) {
    using Matrix = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;
    using Column = Eigen::Array<T, Eigen::Dynamic, 1>;
    parallelFor(s.outer, 1, [&](int64_t begin, int64_t end) {
        Column m(s.inner), sum(s.inner);
        for (int64_t o = begin; o < end; ++o) {
            Eigen::Map<const Matrix> in(x + o * s.axis * s.inner, s.inner, s.axis);
            Eigen::Map<Matrix> out(y + o * s.axis * s.inner, s.inner, s.axis);
            m = in.rowwise().maxCoeff();
            if (op == Op::Hardmax) {
                out.setZero();
                for (int64_t i = 0; i < s.inner; ++i) {
                    int64_t k = 0;
                    while (in(i, k) != m[i] && k + 1 < s.axis) ++k;  // the first maximum
                    out(i, k) = T(1);
                }
                continue;
            }
            out = (in.colwise() - m).exp();
            sum = out.rowwise().sum();
            if (op == Op::Softmax)
                out.colwise() /= sum;
            else
                out = (in.colwise() - (m + sum.log()));
        }
    });
}

}  // namespace

void SoftmaxKernel::computeOneDnn(const Tensor& x, Tensor& y, int64_t outer, int64_t axis, int64_t inner) {
    const auto desc = onednn::plainDesc({outer, axis, inner});
    auto& primitive = mPrimitive.get({desc}, [&] {
        const auto alg = mOp == Op::LogSoftmax ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
        return dnnl::softmax_v2_forward(dnnl::softmax_v2_forward::primitive_desc(
            dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, alg, desc, desc, 1), onednn::engine()));
    });
    primitive.execute(onednn::stream(), {{DNNL_ARG_SRC, onednn::wrap(x, desc)}, {DNNL_ARG_DST, onednn::wrap(y, desc)}});
    onednn::stream().wait();
}

Status SoftmaxKernel::init(const KernelInit& info) {
    const std::string& type = info.node.opType;
    mOp = type == "LogSoftmax" ? Op::LogSoftmax : type == "Hardmax" ? Op::Hardmax : Op::Softmax;
    mFlatten = info.opset < 13;
    mAxis = info.node.intAttribute("axis", mFlatten ? 1 : -1);
    return Status::ok();
}

Status SoftmaxKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (!axis)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for shape " + shapeString(x.shape()));
    AxisSplit split = splitAtAxis(x.shape(), *axis);
    if (mFlatten) split = {split.outer, split.axis * split.inner, 1};
    Tensor y(x.dtype(), x.shape());
    if (x.dtype() == DataType::Float && mOp != Op::Hardmax && x.elementCount() > 0) {
        try {
            computeOneDnn(x, y, split.outer, split.axis, split.inner);
        } catch (const dnnl::error& e) {
            return ctx.fail(std::string("oneDNN could not run this softmax: ") + e.what());
        }
        setOutputAs(ctx, 0, std::move(y), dtype);  // a float16 input computed in float gives float16 back
        return Status::ok();
    }
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (split.axis == 0) return;
        if (split.inner == 1) {
            const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / split.axis);
            parallelFor(split.outer, grain, [&](int64_t begin, int64_t end) {
                for (int64_t o = begin; o < end; ++o)
                    softmaxRow(mOp, x.data<T>() + o * split.axis, y.data<T>() + o * split.axis, split.axis);
            });
        } else {
            softmaxStrided(mOp, x.data<T>(), y.data<T>(), split);
        }
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
