#include "core/exec/kernels/control_flow_util.h"

#include <algorithm>

#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

// Elements before `axis` (outer) and after it (inner) of a shape.
std::pair<int64_t, int64_t> outerInner(const Shape& shape, int64_t axis) {
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        const auto i = static_cast<int64_t>(d);
        if (i < axis) outer *= shape[d];
        if (i > axis) inner *= shape[d];
    }
    return {outer, inner};
}

Tensor emptyStack(const TensorType& declared, int64_t axis) {
    Shape shape;
    if (declared.fullyKnown() && axis <= static_cast<int64_t>(declared.dims.size()))
        for (const Dim& d : declared.dims) shape.push_back(d.size);
    shape.insert(shape.begin() + std::min<int64_t>(axis, static_cast<int64_t>(shape.size())), 0);
    const DataType dtype = declared.dtype == DataType::Undefined ? DataType::Float : declared.dtype;
    return Tensor(dtype, shape);
}

}  // namespace

Result<bool> readCondition(const KernelContext& ctx, size_t input) {
    if (!ctx.hasInput(input) || ctx.input(input).elementCount() != 1)
        return ctx.fail("the condition (input " + std::to_string(input) + ") must hold exactly one element");
    const Tensor& t = ctx.input(input);
    if (t.dtype() == DataType::Bool) return t.data<uint8_t>()[0] != 0;
    return t.toFloats()[0] != 0.0f;
}

Result<int64_t> readScalarInt(const KernelContext& ctx, size_t input) {
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> values, readInt64Input(ctx, input));
    if (values.size() != 1) return ctx.fail("input " + std::to_string(input) + " must hold exactly one integer");
    return values[0];
}

Tensor scalarInt64(int64_t value) {
    return Tensor::fromVector(DataType::Int64, {}, std::vector<int64_t>{value});
}

Tensor scalarBool(bool value) {
    return Tensor::fromVector(DataType::Bool, {}, std::vector<uint8_t>{value ? uint8_t{1} : uint8_t{0}});
}

Tensor sliceAlong(const Tensor& t, int64_t axis, int64_t index) {
    Shape shape = t.shape();
    const auto [outer, inner] = outerInner(shape, axis);
    const int64_t length = shape[static_cast<size_t>(axis)];
    shape.erase(shape.begin() + axis);
    Tensor slice(t.dtype(), shape);
    const size_t size = dataTypeSize(t.dtype());
    const Strides srcStrides{length * inner, 1}, dstStrides{inner, 1};
    stridedCopy({outer, inner}, bytesOf(slice), dstStrides, bytesOf(t) + index * inner * static_cast<int64_t>(size),
                srcStrides, size);
    return slice;
}

Result<Tensor> stackAlong(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis, bool reverse,
                          const TensorType& declared, const std::string& what) {
    if (parts.empty()) return emptyStack(declared, axis);
    const Tensor& first = parts.front();
    if (axis < 0 || axis > static_cast<int64_t>(first.rank()))
        return ctx.fail(what + ": axis " + std::to_string(axis) + " is out of range for rank " +
                        std::to_string(first.rank() + 1));
    for (const Tensor& part : parts)
        if (part.shape() != first.shape() || part.dtype() != first.dtype())
            return ctx.fail(what + " changes from " + shapeString(first.shape()) + " to " + shapeString(part.shape()) +
                            " between iterations: every iteration must give the same "
                            "shape and type");
    Shape shape = first.shape();
    const auto count = static_cast<int64_t>(parts.size());
    shape.insert(shape.begin() + axis, count);
    Tensor out(first.dtype(), shape);
    const auto [outer, inner] = outerInner(shape, axis);
    const size_t size = dataTypeSize(first.dtype());
    const Strides dstStrides{count * inner, 1}, srcStrides{inner, 1};
    for (int64_t i = 0; i < count; ++i) {
        const int64_t position = reverse ? count - 1 - i : i;
        stridedCopy({outer, inner}, bytesOf(out) + position * inner * static_cast<int64_t>(size), dstStrides,
                    bytesOf(parts[static_cast<size_t>(i)]), srcStrides, size);
    }
    return out;
}

}  // namespace ql
