#include "core/exec/kernels/qlinear_lookup.h"

#include <cmath>

#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

enum Input : size_t { kX = 0, kXScale, kXZero, kYScale, kYZero };

}  // namespace

Status QLinearLookupKernel::init(const KernelInit& info) {
    mSigmoid = info.node.opType == "QLinearSigmoid";
    mAlpha = info.node.floatAttribute("alpha", 0.01f);
    return Status::ok();
}

Status QLinearLookupKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kX, "X"));
    const Tensor& x = ctx.input(kX);
    QL_ASSIGN_OR_RETURN(const Quantization qx, readQuantization(ctx, kXScale, kXZero, x.dtype(), "X"));
    QL_ASSIGN_OR_RETURN(const Quantization qy, readQuantization(ctx, kYScale, kYZero, x.dtype(), "Y"));
    std::array<int32_t, 256> table{};  // indexed by the input's byte
    for (int32_t byte = 0; byte < 256; ++byte) {
        const int32_t level = x.dtype() == DataType::Int8 ? static_cast<int8_t>(byte) : byte;
        const float v = qx.dequantize(level);
        table[static_cast<size_t>(byte)] =
            qy.quantize(mSigmoid ? 1.0f / (1.0f + std::exp(-v)) : (v >= 0 ? v : v * mAlpha));
    }
    Tensor& y = ctx.allocateOutput(0, qy.type, x.shape());
    const auto* bytes = static_cast<const uint8_t*>(x.rawData());
    for (int64_t i = 0; i < x.elementCount(); ++i) setEightBit(y, i, table[bytes[i]]);
    return Status::ok();
}

}  // namespace ql
