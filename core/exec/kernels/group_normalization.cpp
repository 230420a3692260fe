#include "core/exec/kernels/group_normalization.h"

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/layer_normalization.h"

namespace ql {

namespace {

// Scale or bias per channel: as given ([C]), or each group's value repeated over its channels ([G]).
Result<std::vector<float>> perChannel(const KernelContext& ctx, size_t input, int64_t channels, int64_t groups) {
    const std::vector<float> values = ctx.input(input).toFloats();
    const auto n = static_cast<int64_t>(values.size());
    if (n == channels) return values;
    if (n != groups)
        return ctx.fail(std::string(input == 1 ? "scale" : "bias") + " has " + std::to_string(n) +
                        " values; it needs one per channel (" + std::to_string(channels) + ") or per group (" +
                        std::to_string(groups) + ")");
    std::vector<float> expanded(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c)
        expanded[static_cast<size_t>(c)] = values[static_cast<size_t>(c / (channels / groups))];
    return expanded;
}

template <typename T>
void scaleAndShift(T* y, int64_t batch, int64_t channels, int64_t size, const std::vector<float>& scale,
                   const std::vector<float>& bias) {
    for (int64_t n = 0; n < batch; ++n)
        for (int64_t c = 0; c < channels; ++c) {
            T* plane = y + (n * channels + c) * size;
            const T s = static_cast<T>(scale[static_cast<size_t>(c)]), b = static_cast<T>(bias[static_cast<size_t>(c)]);
            for (int64_t i = 0; i < size; ++i) plane[i] = plane[i] * s + b;
        }
}

}  // namespace

Status GroupNormalizationKernel::init(const KernelInit& info) {
    mGroups = info.node.intAttribute("num_groups", 0);
    mEpsilon = info.node.floatAttribute("epsilon", 1e-5f);
    if (mGroups < 1) return info.fail("num_groups must be given and positive");
    return Status::ok();
}

Status GroupNormalizationKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || !ctx.hasInput(2)) return ctx.fail("needs inputs X, scale and bias");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    if (x.rank() < 2) return ctx.fail("X must be N x C x ..., not " + shapeString(x.shape()));
    const int64_t batch = x.dim(0), channels = x.dim(1);
    if (channels % mGroups != 0)
        return ctx.fail(std::to_string(channels) + " channels do not split into " + std::to_string(mGroups) +
                        " groups");
    QL_ASSIGN_OR_RETURN(const std::vector<float> scale, perChannel(ctx, 1, channels, mGroups));
    QL_ASSIGN_OR_RETURN(const std::vector<float> bias, perChannel(ctx, 2, channels, mGroups));
    const int64_t size = batch * channels != 0 ? x.elementCount() / (batch * channels) : 0;
    Tensor y(x.dtype(), x.shape());
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        normalizeRows<T>(x.data<T>(), y.data<T>(), batch * mGroups, channels / mGroups * size, mEpsilon);
        scaleAndShift(y.data<T>(), batch, channels, size, scale, bias);
    });
    if (!ok) return unsupportedType(ctx, dtype);
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
