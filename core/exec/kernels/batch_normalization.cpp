#include "core/exec/kernels/batch_normalization.h"

#include <Eigen/Core>
#include <cmath>

#include "core/exec/kernels/cast.h"
#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// y[n, c, :] = x[n, c, :] * a[c] + b[c]
template <typename T>
void scaleShift(const Tensor& x, Tensor& y, const std::vector<double>& a, const std::vector<double>& b) {
    const AxisSplit s = splitAtAxis(x.shape(), 1);
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    parallelFor(s.outer * s.axis, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, s.inner)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t j = begin; j < end; ++j) {
                        const size_t c = static_cast<size_t>(j % s.axis);
                        Eigen::Map<Array>(y.data<T>() + j * s.inner, s.inner) =
                            Eigen::Map<const Array>(x.data<T>() + j * s.inner, s.inner) * T(a[c]) + T(b[c]);
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
    const auto& [scale, bias, runningMean, runningVar] = params;
    std::vector<double> mean = runningMean, var = runningVar;
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (mTraining) channelMoments<T>(x, mean, var);
        std::vector<double> a(channels), b(channels);
        for (size_t c = 0; c < channels; ++c) {
            a[c] = scale[c] / std::sqrt(var[c] + static_cast<double>(mEpsilon));
            b[c] = bias[c] - mean[c] * a[c];
        }
        scaleShift<T>(x, y, a, b);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    // Training outputs: the running statistics blended with the batch ones.
    for (size_t o = 1; o < 3 && o < ctx.outputCount(); ++o) {
        const Tensor& like = ctx.input(o + 2);
        const std::vector<double>& batch = o == 1 ? mean : var;
        const std::vector<double>& running = o == 1 ? runningMean : runningVar;
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
