#include "core/exec/kernels/compress.h"

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status CompressKernel::init(const KernelInit& info) {
    mHasAxis = info.node.attribute("axis") != nullptr;
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

Status CompressKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs input and condition");
    const Tensor x = mHasAxis ? ctx.input(0) : ctx.input(0).reshaped({ctx.input(0).elementCount()});
    const std::vector<float> condition = ctx.input(1).toFloats();
    const auto axis = normalizeAxis(mHasAxis ? mAxis : 0, static_cast<int64_t>(x.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for " + shapeString(x.shape()));
    const int64_t length = x.dim(static_cast<size_t>(*axis));
    if (static_cast<int64_t>(condition.size()) > length)
        return ctx.fail("the condition has " + std::to_string(condition.size()) + " values for an axis of " +
                        std::to_string(length));
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.rank(); ++d) {
        if (static_cast<int64_t>(d) < *axis) outer *= x.dim(d);
        if (static_cast<int64_t>(d) > *axis) inner *= x.dim(d);
    }
    std::vector<int64_t> kept;
    for (size_t i = 0; i < condition.size(); ++i)
        if (condition[i] != 0.0f) kept.push_back(static_cast<int64_t>(i));
    Shape shape = x.shape();
    shape[static_cast<size_t>(*axis)] = static_cast<int64_t>(kept.size());
    Tensor& y = ctx.allocateOutput(0, x.dtype(), shape);
    for (int64_t o = 0; o < outer; ++o)
        for (size_t k = 0; k < kept.size(); ++k)
            copyElements(y, (o * static_cast<int64_t>(kept.size()) + static_cast<int64_t>(k)) * inner, x,
                         (o * length + kept[k]) * inner, inner);
    return Status::ok();
}

}  // namespace ql
