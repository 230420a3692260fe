#include "core/exec/kernels/qlinear_binary.h"

#include <cmath>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

namespace {

enum Input : size_t { kA = 0, kAScale, kAZero, kB, kBScale, kBZero, kCScale, kCZero };

}  // namespace

Status QLinearBinaryKernel::init(const KernelInit& info) {
    mMul = info.node.opType == "QLinearMul";
    return Status::ok();
}

Status QLinearBinaryKernel::compute(KernelContext& ctx) {
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kA, "A"));
    QL_RETURN_IF_ERROR(checkEightBit(ctx, kB, "B"));
    const Tensor &a = ctx.input(kA), &b = ctx.input(kB);
    QL_ASSIGN_OR_RETURN(const Quantization qa, readQuantization(ctx, kAScale, kAZero, a.dtype(), "A"));
    QL_ASSIGN_OR_RETURN(const Quantization qb, readQuantization(ctx, kBScale, kBZero, b.dtype(), "B"));
    QL_ASSIGN_OR_RETURN(const Quantization qc, readQuantization(ctx, kCScale, kCZero, a.dtype(), "C"));
    const Tensor* operands[] = {&a, &b};
    QL_ASSIGN_OR_RETURN(const Shape shape, broadcastInputs(ctx, operands));
    std::vector<int32_t> av(static_cast<size_t>(a.elementCount())), bv(static_cast<size_t>(b.elementCount()));
    for (int64_t i = 0; i < a.elementCount(); ++i) av[static_cast<size_t>(i)] = eightBitAt(a, i) - qa.zero;
    for (int64_t i = 0; i < b.elementCount(); ++i) bv[static_cast<size_t>(i)] = eightBitAt(b, i) - qb.zero;
    std::vector<int32_t> levels(static_cast<size_t>(shapeElementCount(shape)));
    const float ratioA = qa.scale / qc.scale, ratioB = qb.scale / qc.scale, product = qa.scale * qb.scale / qc.scale;
    const float lo = qc.type == DataType::Int8 ? -128.0f : 0.0f, hi = qc.type == DataType::Int8 ? 127.0f : 255.0f;
    const float zero = static_cast<float>(qc.zero);
    const bool mul = mMul;
    broadcastBinary(av.data(), a.shape(), bv.data(), b.shape(), levels.data(), shape, [=](int32_t x, int32_t y) {
        const float v = mul ? static_cast<float>(x) * static_cast<float>(y) * product
                            : static_cast<float>(x) * ratioA + static_cast<float>(y) * ratioB;
        return static_cast<int32_t>(std::clamp(std::nearbyint(v) + zero, lo, hi));
    });
    Tensor& c = ctx.allocateOutput(0, qc.type, shape);
    for (int64_t i = 0; i < c.elementCount(); ++i) setEightBit(c, i, levels[static_cast<size_t>(i)]);
    return Status::ok();
}

}  // namespace ql
