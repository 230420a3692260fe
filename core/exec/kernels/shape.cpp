#include "core/exec/kernels/shape.h"

#include <algorithm>

namespace ql {

Status ShapeKernel::init(const KernelInit& info) {
    mStart = info.node.intAttribute("start", 0);
    if (info.node.attribute("end")) mEnd = info.node.intAttribute("end", 0);
    return Status::ok();
}

Status ShapeKernel::compute(KernelContext& ctx) {
    const Shape& shape = ctx.input(0).shape();
    const auto rank = static_cast<int64_t>(shape.size());
    // Negative start/end count from the back; both are clamped to [0, rank] (opset 15).
    auto clampIndex = [rank](int64_t i) { return std::clamp(i < 0 ? i + rank : i, int64_t{0}, rank); };
    const int64_t start = clampIndex(mStart);
    const int64_t end = std::max(start, clampIndex(mEnd.value_or(rank)));
    Tensor& out = ctx.allocateOutput(0, DataType::Int64, {end - start});
    std::copy(shape.begin() + start, shape.begin() + end, out.data<int64_t>());
    return Status::ok();
}

Status SizeKernel::compute(KernelContext& ctx) {
    Tensor& out = ctx.allocateOutput(0, DataType::Int64, {});
    *out.data<int64_t>() = ctx.input(0).elementCount();
    return Status::ok();
}

}  // namespace ql
