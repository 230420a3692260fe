#include "core/exec/kernels/where.h"

#include <cstring>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// Selection moves elements without looking at them, so it is dispatched on element size only.
template <typename T>
void select(const Tensor& c, const Tensor& a, const Tensor& b, Tensor& y) {
    const Shape shapes[] = {c.shape(), a.shape(), b.shape()};
    const bool* pc = c.data<bool>();
    const T* pa = static_cast<const T*>(a.rawData());
    const T* pb = static_cast<const T*>(b.rawData());
    T* py = static_cast<T*>(y.rawData());
    forEachBroadcastRow(shapes, y.shape(), [&](int64_t row, const int64_t* off, int64_t inner, const int64_t* s) {
        const bool* rc = pc + off[0];
        const T* ra = pa + off[1];
        const T* rb = pb + off[2];
        T* ry = py + row * inner;
        for (int64_t i = 0; i < inner; ++i) ry[i] = rc[i * s[0]] ? ra[i * s[1]] : rb[i * s[2]];
    });
}

}  // namespace

Status WhereKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || !ctx.hasInput(2)) return ctx.fail("needs condition, X and Y");
    const Tensor &c = ctx.input(0), &a = ctx.input(1), &b = ctx.input(2);
    if (c.dtype() != DataType::Bool)
        return ctx.fail(std::string("condition must be BOOL, got ") + dataTypeName(c.dtype()));
    if (a.dtype() != b.dtype())
        return ctx.fail(std::string("X and Y have different element types ") + dataTypeName(a.dtype()) + " and " +
                        dataTypeName(b.dtype()));
    const Tensor* ins[] = {&c, &a, &b};
    QL_ASSIGN_OR_RETURN(Shape shape, broadcastInputs(ctx, ins));
    Tensor& y = ctx.allocateOutput(0, a.dtype(), shape);
    switch (dataTypeSize(a.dtype())) {
        case 1:
            select<uint8_t>(c, a, b, y);
            break;
        case 2:
            select<uint16_t>(c, a, b, y);
            break;
        case 4:
            select<uint32_t>(c, a, b, y);
            break;
        case 8:
            select<uint64_t>(c, a, b, y);
            break;
        default:
            return unsupportedType(ctx, a.dtype());
    }
    return Status::ok();
}

}  // namespace ql
