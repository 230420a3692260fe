#include "core/exec/kernels/one_hot.h"

#include <cmath>

#include "core/exec/kernels/copy_util.h"

namespace ql {

Status OneHotKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -1);
    return Status::ok();
}

Status OneHotKernel::compute(KernelContext& ctx) {
    const Tensor& indexTensor = ctx.input(0);
    const Tensor& values = ctx.input(2);
    if (ctx.input(1).elementCount() != 1 || values.elementCount() != 2)
        return ctx.fail("depth must be a single value and values must hold [off, on]");
    // depth and indices may be float: ONNX casts them to integers.
    const auto depth = static_cast<int64_t>(ctx.input(1).toFloats()[0]);
    if (depth < 1) return ctx.fail("depth must be positive, not " + std::to_string(depth));
    const auto rank = static_cast<int64_t>(indexTensor.rank()) + 1;
    const auto axis = normalizeAxis(mAxis, rank);
    if (!axis)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for output rank " + std::to_string(rank));
    Shape shape = indexTensor.shape();
    shape.insert(shape.begin() + *axis, depth);
    const Shape& is = indexTensor.shape();
    const int64_t inner = shapeElementCount(Shape(is.begin() + *axis, is.end()));
    Tensor& out = ctx.allocateOutput(0, values.dtype(), shape);
    fillElements(out, values.rawData());
    const std::vector<float> indices = indexTensor.toFloats();
    for (size_t i = 0; i < indices.size(); ++i) {
        auto index = static_cast<int64_t>(indices[i]);
        if (index < 0) index += depth;
        if (index < 0 || index >= depth) continue;  // out-of-range indices give an all-off row
        const int64_t outer = static_cast<int64_t>(i) / inner, in = static_cast<int64_t>(i) % inner;
        copyElements(out, (outer * depth + index) * inner + in, values, 1, 1);
    }
    return Status::ok();
}

}  // namespace ql
