#include "core/exec/kernels/qlinear_concat.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/integer_util.h"

namespace ql {

Status QLinearConcatKernel::init(const KernelInit& info) {
    if (!info.node.attribute("axis")) return info.fail("needs the axis attribute");
    mAxis = info.node.intAttribute("axis", 0);
    if (info.node.inputs.size() < 5 || (info.node.inputs.size() - 2) % 3 != 0)
        return info.fail("inputs must be Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per tensor");
    return Status::ok();
}

Status QLinearConcatKernel::compute(KernelContext& ctx) {
    const size_t count = (ctx.node().inputs.size() - 2) / 3;
    QL_RETURN_IF_ERROR(checkEightBit(ctx, 2, "X"));
    const Tensor& first = ctx.input(2);
    QL_ASSIGN_OR_RETURN(const Quantization qy, readQuantization(ctx, 0, 1, first.dtype(), "Y"));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(first.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for " + shapeString(first.shape()));
    Shape shape = first.shape();
    shape[static_cast<size_t>(*axis)] = 0;
    std::vector<Tensor> parts;
    for (size_t k = 0; k < count; ++k) {
        const size_t in = 2 + 3 * k;
        QL_RETURN_IF_ERROR(checkEightBit(ctx, in, "X"));
        const Tensor& x = ctx.input(in);
        QL_ASSIGN_OR_RETURN(const Quantization qx, readQuantization(ctx, in + 1, in + 2, x.dtype(), "X"));
        for (size_t d = 0; d < shape.size(); ++d)
            if (x.rank() != shape.size() || (static_cast<int64_t>(d) != *axis && x.dim(d) != shape[d]))
                return ctx.fail("input " + std::to_string(k) + " " + shapeString(x.shape()) +
                                " does not concatenate with " + shapeString(first.shape()));
        Tensor requantized(qy.type, x.shape());
        for (int64_t i = 0; i < x.elementCount(); ++i)
            setEightBit(requantized, i, qy.quantize(qx.dequantize(eightBitAt(x, i))));
        shape[static_cast<size_t>(*axis)] += x.dim(static_cast<size_t>(*axis));
        parts.push_back(std::move(requantized));
    }
    Tensor& y = ctx.allocateOutput(0, qy.type, shape);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (static_cast<int64_t>(d) < *axis) outer *= shape[d];
        if (static_cast<int64_t>(d) > *axis) inner *= shape[d];
    }
    int64_t offset = 0;
    for (const Tensor& part : parts) {
        const int64_t width = part.dim(static_cast<size_t>(*axis)) * inner;
        for (int64_t o = 0; o < outer; ++o)
            copyElements(y, o * shape[static_cast<size_t>(*axis)] * inner + offset, part, o * width, width);
        offset += width;
    }
    return Status::ok();
}

}  // namespace ql
