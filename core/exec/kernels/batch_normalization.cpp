#include "core/exec/kernels/batch_normalization.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/cast.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/onednn_util.h"

namespace ql {

namespace {

// y[n, c, :] = x[n, c, :] * a[c] + b[c], then max(0, y) when `relu`
template <typename T>
void scaleShift(const Tensor& x, Tensor& y, const std::vector<double>& a, const std::vector<double>& b, bool relu) {
    const AxisSplit s = splitAtAxis(x.shape(), 1);
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    parallelFor(s.outer * s.axis, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, s.inner)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t j = begin; j < end; ++j) {
                        const size_t c = static_cast<size_t>(j % s.axis);
                        auto out = Eigen::Map<Array>(y.data<T>() + j * s.inner, s.inner);
                        out = Eigen::Map<const Array>(x.data<T>() + j * s.inner, s.inner) * T(a[c]) + T(b[c]);
                        if (relu) out = out.max(T(0));
                    }
                });
}

// Per-channel mean and population variance over N and the spatial dims.
template <typename T>
void channelMoments(const Tensor& x, std::vector<double>& mean, std::vector<double>& var) {
    const AxisSplit s = splitAtAxis(x.shape(), 1);
    mean.assign(static_cast<size_t>(s.axis), 0.0);
    var.assign(static_cast<size_t>(s.axis), 0.0);
    const double count = static_cast<double>(s.outer * s.inner);
    for (int64_t j = 0; j < s.outer * s.axis; ++j) {
        const auto v = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(x.data<T>() + j * s.inner, s.inner)
                           .template cast<double>();
        mean[static_cast<size_t>(j % s.axis)] += v.sum() / count;
    }
    for (int64_t j = 0; j < s.outer * s.axis; ++j) {
        const size_t c = static_cast<size_t>(j % s.axis);
        const auto v = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(x.data<T>() + j * s.inner, s.inner)
                           .template cast<double>();
        var[c] += (v - mean[c]).square().sum() / count;
    }
}

}  // namespace

Status BatchNormalizationKernel::init(const KernelInit& info) {
    mEpsilon = info.node.floatAttribute("epsilon", 1e-5f);
    mMomentum = info.node.floatAttribute("momentum", 0.9f);
    mTraining = info.node.intAttribute("training_mode", 0) != 0;
    return Status::ok();
}

Status BatchNormalizationKernel::compute(KernelContext& ctx) {
    for (size_t i = 0; i < 5; ++i)
        if (!ctx.hasInput(i)) return ctx.fail("needs inputs X, scale, B, input_mean and input_var");
    if (!hasLayoutInput(ctx)) return computePlain(ctx);
    QL_ASSIGN_OR_RETURN(bool done, computeInLayout(ctx));
    if (done) return Status::ok();
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

Result<bool> BatchNormalizationKernel::computeInLayout(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (mTraining || ctx.outputCount() > 1 || x.dtype() != DataType::Float || x.rank() < 2 || x.elementCount() == 0)
        return false;
    for (size_t i = 1; i < 5; ++i)
        if (!ctx.input(i).isPlain() || ctx.input(i).dtype() != DataType::Float ||
            ctx.input(i).elementCount() != x.dim(1))
            return false;
    using flags = dnnl::normalization_flags;
    try {
        const auto desc = onednn::descOf(x);
        if (!mPrimitive || mPrimitive->first != desc) {
            // Inference needs no workspace for the fused ReLU; max(0, y) is exact, as the Relu kernel's.
            const flags relu = mFusedRelu ? flags::fuse_norm_relu : flags::none;
            dnnl::batch_normalization_forward::primitive_desc pd(
                dnnl::batch_normalization_forward::desc(
                    dnnl::prop_kind::forward_inference, desc, mEpsilon,
                    flags::use_global_stats | flags::use_scale | flags::use_shift | relu),
                onednn::engine());
            mPrimitive.emplace(desc, dnnl::batch_normalization_forward(pd));
        }
        Tensor y = onednn::allocateIn(desc, x.shape());
        auto channel = [&](size_t i) { return onednn::wrap(ctx.input(i), onednn::plainDesc({x.dim(1)})); };
        mPrimitive->second.execute(onednn::stream(), {{DNNL_ARG_SRC, onednn::memoryOf(x)},
                                                      {DNNL_ARG_SCALE, channel(1)},
                                                      {DNNL_ARG_SHIFT, channel(2)},
                                                      {DNNL_ARG_MEAN, channel(3)},
                                                      {DNNL_ARG_VARIANCE, channel(4)},
                                                      {DNNL_ARG_DST, onednn::memoryOf(y)}});
        onednn::stream().wait();
        ctx.setOutput(0, mKeepLayout ? std::move(y) : onednn::toPlain(y));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this batch normalization: ") + e.what());
    }
    return true;
}

Status BatchNormalizationKernel::computePlain(KernelContext& ctx) const {
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() < 2) return ctx.fail("X must have at least 2 dimensions [N, C, ...], got " + shapeString(x.shape()));
    const size_t channels = static_cast<size_t>(x.dim(1));
    std::vector<double> params[4];
    for (size_t i = 0; i < 4; ++i) {
        params[i] = valuesAsDouble(ctx.input(i + 1));
        if (params[i].size() != channels)
            return ctx.fail("input " + std::to_string(i + 1) + " has " + std::to_string(params[i].size()) +
                            " values, expected one per channel (" + std::to_string(channels) + ")");
    }
    // Named references, not a structured binding: clang 14 (the fuzz build) cannot capture bindings in lambdas.
    const std::vector<double>& scale = params[0];
    const std::vector<double>& bias = params[1];
    std::vector<double> mean = params[2], var = params[3];
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (mTraining) channelMoments<T>(x, mean, var);
        std::vector<double> a(channels), b(channels);
        for (size_t c = 0; c < channels; ++c) {
            a[c] = scale[c] / std::sqrt(var[c] + static_cast<double>(mEpsilon));
            b[c] = bias[c] - mean[c] * a[c];
        }
        scaleShift<T>(x, y, a, b, mFusedRelu);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    // Training outputs: the running statistics blended with the batch ones.
    for (size_t o = 1; o < 3 && o < ctx.outputCount(); ++o) {
        const Tensor& like = ctx.input(o + 2);
        const std::vector<double>& batch = o == 1 ? mean : var;
        const std::vector<double>& running = params[o + 1];
        Tensor out(DataType::Double, like.shape());
        for (size_t c = 0; c < channels; ++c)
            out.data<double>()[c] = running[c] * mMomentum + batch[c] * (1.0 - mMomentum);
        auto converted = castTensor(out, like.dtype());
        if (!converted) return unsupportedType(ctx, like.dtype());
        ctx.setOutput(o, std::move(*converted));
    }
    return Status::ok();
}

}  // namespace ql
