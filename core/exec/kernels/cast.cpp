#include "core/exec/kernels/cast.h"

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

template <typename T>
constexpr bool kIsHalf = std::is_same_v<T, Half16> || std::is_same_v<T, BFloat16Bits>;

template <typename S, typename D>
D convert(S v) {
    const auto value = toArithmetic(v);  // float for 16-bit floats
    if constexpr (std::is_same_v<D, bool>)
        return value != 0;
    else if constexpr (kIsHalf<D>)
        return fromArithmetic<D>(static_cast<float>(value));
    else
        return static_cast<D>(value);
}

template <typename S, typename D>
void castAll(const Tensor& in, Tensor& out) {
    const S* src = static_cast<const S*>(in.rawData());
    D* dst = static_cast<D*>(out.rawData());
    parallelFor(in.elementCount(), kElementwiseGrain, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) dst[i] = convert<S, D>(src[i]);
    });
}

}  // namespace

std::optional<Tensor> castTensor(const Tensor& in, DataType to) {
    if (to == in.dtype()) return in;
    Tensor out(to, in.shape());
    bool ok = false;
    const bool known = visitNumeric(
        in.dtype(), [&]<typename S>(S) { ok = visitNumeric(to, [&]<typename D>(D) { castAll<S, D>(in, out); }); });
    if (!known || !ok) return std::nullopt;
    return out;
}

Status CastKernel::init(const KernelInit& info) {
    mLike = info.node.opType == "CastLike";
    if (mLike) return Status::ok();
    if (!info.node.attribute("to")) return info.fail("needs the 'to' attribute");
    mTo = dataTypeFromOnnx(static_cast<int32_t>(info.node.intAttribute("to", 0)));
    if (dataTypeSize(mTo) == 0 || mTo == DataType::Complex64 || mTo == DataType::Complex128)
        return info.fail(std::string("casting to ") + dataTypeName(mTo) + " is not supported");
    return Status::ok();
}

Status CastKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || (mLike && !ctx.hasInput(1))) return ctx.fail(mLike ? "needs two inputs" : "needs an input");
    const Tensor& in = ctx.input(0);
    const DataType to = mLike ? ctx.input(1).dtype() : mTo;
    auto out = castTensor(in, to);
    if (!out) return ctx.fail(std::string("cannot cast ") + dataTypeName(in.dtype()) + " to " + dataTypeName(to));
    ctx.setOutput(0, std::move(*out));
    return Status::ok();
}

}  // namespace ql
