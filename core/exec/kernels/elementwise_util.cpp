#include "core/exec/kernels/elementwise_util.h"

#include "core/common/half.h"

namespace ql {

Tensor toFloatTensor(const Tensor& half) {
    Tensor out(DataType::Float, half.shape());
    const uint16_t* in = half.data<uint16_t>();
    float* o = out.data<float>();
    const bool bf16 = half.dtype() == DataType::BFloat16;
    for (int64_t i = 0; i < half.elementCount(); ++i) o[i] = bf16 ? bfloat16ToFloat(in[i]) : halfToFloat(in[i]);
    return out;
}

Tensor fromFloatTensor(const Tensor& values, DataType halfType) {
    Tensor out(halfType, values.shape());
    const float* in = values.data<float>();
    uint16_t* o = out.data<uint16_t>();
    const bool bf16 = halfType == DataType::BFloat16;
    for (int64_t i = 0; i < values.elementCount(); ++i) o[i] = bf16 ? floatToBfloat16(in[i]) : floatToHalf(in[i]);
    return out;
}

Tensor promoteHalf(const Tensor& t) {
    return isHalfType(t.dtype()) ? toFloatTensor(t) : t;
}

void setOutputAs(KernelContext& ctx, size_t i, Tensor result, DataType dtype) {
    ctx.setOutput(i, isHalfType(dtype) ? fromFloatTensor(result, dtype) : std::move(result));
}

Status unsupportedType(const KernelContext& ctx, DataType dtype) {
    return ctx.fail(std::string("does not support element type ") + dataTypeName(dtype));
}

Result<BinaryOperands> binaryOperands(const KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs two inputs");
    const DataType dtype = ctx.input(0).dtype();
    if (ctx.input(1).dtype() != dtype)
        return ctx.fail(std::string("inputs have different element types ") + dataTypeName(dtype) + " and " +
                        dataTypeName(ctx.input(1).dtype()) + "; insert a Cast");
    BinaryOperands operands{promoteHalf(ctx.input(0)), promoteHalf(ctx.input(1)), {}};
    const Tensor* ins[] = {&operands.a, &operands.b};
    QL_ASSIGN_OR_RETURN(operands.shape, broadcastInputs(ctx, ins));
    return operands;
}

Result<Shape> broadcastInputs(const KernelContext& ctx, std::span<const Tensor* const> inputs) {
    Shape out;
    for (const Tensor* t : inputs) {
        auto merged = broadcastShapes(out, t->shape());
        if (!merged) {
            std::string shapes;
            for (const Tensor* u : inputs) shapes += (shapes.empty() ? "" : " and ") + shapeString(u->shape());
            return ctx.fail("input shapes " + shapes + " cannot be broadcast together (numpy rules)");
        }
        out = std::move(*merged);
    }
    return out;
}

namespace {

// Element strides of `shape` right-aligned against an output of rank `rank`; 0 for broadcast dims.
std::vector<int64_t> alignedStrides(const Shape& shape, size_t rank) {
    std::vector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        const size_t d = shape.size() - 1 - i;
        const size_t o = rank - 1 - i;
        strides[o] = shape[d] == 1 ? 0 : stride;
        stride *= shape[d];
    }
    return strides;
}

}  // namespace

BroadcastPlan planBroadcast(std::span<const Shape> inputs, const Shape& out) {
    BroadcastPlan plan;
    plan.strides.resize(inputs.size());
    std::vector<std::vector<int64_t>> aligned;
    for (const Shape& in : inputs) aligned.push_back(alignedStrides(in, out.size()));
    for (size_t d = 0; d < out.size(); ++d) {
        if (out[d] == 1) continue;  // size-1 dims do not move any offset
        // Merge into the previous dim when every input is contiguous (or broadcast) across the boundary.
        bool merges = !plan.dims.empty();
        for (size_t k = 0; merges && k < inputs.size(); ++k) {
            const int64_t prev = plan.strides[k].back();
            merges = prev == aligned[k][d] * out[d];
        }
        if (merges) {
            plan.dims.back() *= out[d];
            for (size_t k = 0; k < inputs.size(); ++k) plan.strides[k].back() = aligned[k][d];
            continue;
        }
        plan.dims.push_back(out[d]);
        for (size_t k = 0; k < inputs.size(); ++k) plan.strides[k].push_back(aligned[k][d]);
    }
    if (plan.dims.empty()) {
        plan.dims.push_back(1);
        for (auto& s : plan.strides) s.push_back(0);
    }
    return plan;
}

void BroadcastPlan::rowOffsets(int64_t row, int64_t* offsets) const {
    const size_t n = strides.size();
    for (size_t k = 0; k < n; ++k) offsets[k] = 0;
    for (size_t d = dims.size() - 1; d-- > 0;) {
        const int64_t idx = row % dims[d];
        row /= dims[d];
        for (size_t k = 0; k < n; ++k) offsets[k] += idx * strides[k][d];
    }
}

Tensor broadcastTo(const Tensor& t, const Shape& shape) {
    if (t.shape() == shape) return t;
    Tensor out(t.dtype(), shape);
    stridedCopy(shape, bytesOf(out), contiguousStrides(shape), bytesOf(t), alignedStrides(t.shape(), shape.size()),
                dataTypeSize(t.dtype()));
    return out;
}

std::vector<double> valuesAsDouble(const Tensor& t) {
    const Tensor p = promoteHalf(t);
    std::vector<double> out(static_cast<size_t>(p.elementCount()));
    visitComputeType(p.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(p.data<T>()[i]);
    });
    return out;
}

AxisSplit splitAtAxis(const Shape& shape, int64_t axis) {
    AxisSplit s;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
        if (d < axis)
            s.outer *= shape[static_cast<size_t>(d)];
        else if (d == axis)
            s.axis = shape[static_cast<size_t>(d)];
        else
            s.inner *= shape[static_cast<size_t>(d)];
    }
    return s;
}

}  // namespace ql
