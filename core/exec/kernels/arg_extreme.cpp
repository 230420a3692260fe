#include "core/exec/kernels/arg_extreme.h"

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// `better(a, b)`: a should replace the current best b.
template <typename T, typename Better>
void argExtreme(const T* x, int64_t* out, AxisSplit s, Better better) {
    parallelFor(s.outer * s.inner, 1024, [&](int64_t begin, int64_t end) {
        for (int64_t j = begin; j < end; ++j) {
            const T* line = x + (j / s.inner) * s.axis * s.inner + j % s.inner;
            int64_t best = 0;
            for (int64_t k = 1; k < s.axis; ++k)
                if (better(line[k * s.inner], line[best * s.inner])) best = k;
            out[j] = best;
        }
    });
}

}  // namespace

Status ArgExtremeKernel::init(const KernelInit& info) {
    mMax = info.node.opType == "ArgMax";
    mAxis = info.node.intAttribute("axis", 0);
    mKeepDims = info.node.intAttribute("keepdims", 1) != 0;
    mSelectLast = info.node.intAttribute("select_last_index", 0) != 0;
    return Status::ok();
}

Status ArgExtremeKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor x = promoteHalf(ctx.input(0));
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (!axis)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for shape " + shapeString(x.shape()));
    const AxisSplit split = splitAtAxis(x.shape(), *axis);
    if (split.axis == 0 && split.outer * split.inner > 0)
        return ctx.fail("cannot take the arg extreme of an empty axis (shape " + shapeString(x.shape()) + ")");
    Shape shape = x.shape();
    if (mKeepDims)
        shape[static_cast<size_t>(*axis)] = 1;
    else
        shape.erase(shape.begin() + *axis);
    Tensor& y = ctx.allocateOutput(0, DataType::Int64, shape);
    const bool ok = visitComputeType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = x.data<T>();
        int64_t* o = y.data<int64_t>();
        if (mMax && mSelectLast)
            argExtreme(p, o, split, [](T a, T b) { return a >= b; });
        else if (mMax)
            argExtreme(p, o, split, [](T a, T b) { return a > b; });
        else if (mSelectLast)
            argExtreme(p, o, split, [](T a, T b) { return a <= b; });
        else
            argExtreme(p, o, split, [](T a, T b) { return a < b; });
    });
    return ok ? Status::ok() : unsupportedType(ctx, dtype);
}

}  // namespace ql
