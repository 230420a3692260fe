#include "core/exec/kernels/reshape.h"

#include <algorithm>

#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

// The axes of a Squeeze/Unsqueeze: from input 1 when the opset passes them as an input, else the attribute.
Result<std::vector<int64_t>> axesOf(const KernelContext& ctx, bool fromInput, const std::vector<int64_t>& attr) {
    if (!fromInput) return attr;
    if (!ctx.hasInput(1)) return std::vector<int64_t>{};
    return readInt64Input(ctx, 1);
}

}  // namespace

Status ReshapeKernel::init(const KernelInit& info) {
    mAllowZero = info.node.intAttribute("allowzero", 0) != 0;
    return Status::ok();
}

Status ReshapeKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(1)) return ctx.fail("needs the shape input");
    QL_ASSIGN_OR_RETURN(Shape shape, readInt64Input(ctx, 1));
    const Tensor& data = ctx.input(0);
    int64_t inferred = -1;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0 && !mAllowZero) {
            if (i >= data.rank())
                return ctx.fail("shape has 0 at axis " + std::to_string(i) + " beyond the input rank");
            shape[i] = data.dim(i);
        }
        if (shape[i] == -1) {
            if (inferred >= 0) return ctx.fail("shape has more than one -1");
            inferred = static_cast<int64_t>(i);
        } else if (shape[i] < 0) {
            return ctx.fail("shape has a negative dimension " + std::to_string(shape[i]));
        } else {
            known *= shape[i];
        }
    }
    if (inferred >= 0) {
        if (known == 0 || data.elementCount() % known != 0)
            return ctx.fail("cannot infer the -1 dimension: " + shapeString(data.shape()) + " into " +
                            shapeString(shape));
        shape[static_cast<size_t>(inferred)] = data.elementCount() / known;
    }
    if (shapeElementCount(shape) != data.elementCount())
        return ctx.fail("cannot reshape " + shapeString(data.shape()) + " into " + shapeString(shape));
    ctx.setOutput(0, data.reshaped(shape));
    return Status::ok();
}

Status FlattenKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 1);
    return Status::ok();
}

Status FlattenKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    const auto rank = static_cast<int64_t>(data.rank());
    const int64_t axis = mAxis < 0 ? mAxis + rank : mAxis;
    if (axis < 0 || axis > rank)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for rank " + std::to_string(rank));
    const Shape& s = data.shape();
    const int64_t outer = shapeElementCount(Shape(s.begin(), s.begin() + axis));
    ctx.setOutput(0, data.reshaped({outer, shapeElementCount(Shape(s.begin() + axis, s.end()))}));
    return Status::ok();
}

Status SqueezeKernel::init(const KernelInit& info) {
    mAxesFromInput = info.opset >= 13;
    mAxes = info.node.intsAttribute("axes");
    return Status::ok();
}

Status SqueezeKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    QL_ASSIGN_OR_RETURN(auto given, axesOf(ctx, mAxesFromInput, mAxes));
    QL_ASSIGN_OR_RETURN(auto axes, normalizeAxes(ctx, given, static_cast<int64_t>(data.rank())));
    Shape shape;
    for (size_t i = 0; i < data.rank(); ++i) {
        const bool listed = std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
        if (listed && data.dim(i) != 1)
            return ctx.fail("cannot squeeze axis " + std::to_string(i) + " of size " + std::to_string(data.dim(i)));
        if (listed || (axes.empty() && data.dim(i) == 1)) continue;
        shape.push_back(data.dim(i));
    }
    ctx.setOutput(0, data.reshaped(shape));
    return Status::ok();
}

Status UnsqueezeKernel::init(const KernelInit& info) {
    mAxesFromInput = info.opset >= 13;
    mAxes = info.node.intsAttribute("axes");
    return Status::ok();
}

Status UnsqueezeKernel::compute(KernelContext& ctx) {
    const Tensor& data = ctx.input(0);
    QL_ASSIGN_OR_RETURN(auto given, axesOf(ctx, mAxesFromInput, mAxes));
    const auto outRank = static_cast<int64_t>(data.rank() + given.size());
    QL_ASSIGN_OR_RETURN(auto axes, normalizeAxes(ctx, given, outRank));
    Shape shape;
    size_t next = 0;
    for (int64_t i = 0; i < outRank; ++i) {
        const bool inserted = std::find(axes.begin(), axes.end(), i) != axes.end();
        shape.push_back(inserted ? 1 : data.dim(next++));
    }
    ctx.setOutput(0, data.reshaped(shape));
    return Status::ok();
}

}  // namespace ql
