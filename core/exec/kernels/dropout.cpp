#include "core/exec/kernels/dropout.h"

#include <cstring>
#include <random>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Status DropoutKernel::init(const KernelInit& info) {
    mRatioIsInput = info.opset >= 12;
    mRatio = info.node.floatAttribute("ratio", 0.5f);
    mHasSeed = info.node.attribute("seed") != nullptr;
    mSeed = static_cast<uint64_t>(info.node.intAttribute("seed", 0));
    return Status::ok();
}

Status DropoutKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor& data = ctx.input(0);
    const bool training = mRatioIsInput && ctx.hasInput(2) && valuesAsDouble(ctx.input(2)).at(0) != 0.0;
    const double ratio = mRatioIsInput && ctx.hasInput(1) ? valuesAsDouble(ctx.input(1)).at(0) : mRatio;
    const bool wantMask = ctx.outputCount() > 1;
    if (!training || ratio == 0.0) {
        ctx.setOutput(0, data);
        if (wantMask)
            std::memset(ctx.allocateOutput(1, DataType::Bool, data.shape()).rawData(), 1, data.elementCount());
        return Status::ok();
    }
    if (ratio < 0.0 || ratio >= 1.0) return ctx.fail("ratio must be in [0, 1), got " + std::to_string(ratio));
    const Tensor x = promoteHalf(data);
    Tensor y(x.dtype(), x.shape());
    Tensor mask(DataType::Bool, x.shape());
    std::mt19937_64 rng(mHasSeed ? mSeed : std::random_device{}());
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    bool* keep = mask.data<bool>();
    for (int64_t i = 0; i < x.elementCount(); ++i) keep[i] = uniform(rng) >= ratio;
    const bool ok = visitFloating(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T scale = static_cast<T>(1.0 / (1.0 - ratio));
        const T* in = x.data<T>();
        T* out = y.data<T>();
        for (int64_t i = 0; i < x.elementCount(); ++i) out[i] = keep[i] ? in[i] * scale : T(0);
    });
    if (!ok) return unsupportedType(ctx, data.dtype());
    setOutputAs(ctx, 0, std::move(y), data.dtype());
    if (wantMask) ctx.setOutput(1, std::move(mask));
    return Status::ok();
}

}  // namespace ql
