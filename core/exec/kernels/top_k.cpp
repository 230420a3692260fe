#include "core/exec/kernels/top_k.h"

#include <algorithm>
#include <numeric>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

struct Layout {
    int64_t outer, dim, inner, k;
};

template <typename T>
void selectTopK(const T* in, T* values, int64_t* indices, const Layout& l, bool largest, bool sorted) {
    using A = typename ArithmeticOf<T>::type;
    std::vector<int64_t> order(static_cast<size_t>(l.dim));
    std::vector<A> row(static_cast<size_t>(l.dim));
    for (int64_t o = 0; o < l.outer; ++o) {
        for (int64_t i = 0; i < l.inner; ++i) {
            const T* base = in + o * l.dim * l.inner + i;
            for (int64_t d = 0; d < l.dim; ++d) row[static_cast<size_t>(d)] = toArithmetic(base[d * l.inner]);
            std::iota(order.begin(), order.end(), 0);
            auto before = [&](int64_t a, int64_t b) {
                const A va = row[static_cast<size_t>(a)], vb = row[static_cast<size_t>(b)];
                if (va != vb) return largest ? va > vb : va < vb;
                return a < b;
            };
            std::partial_sort(order.begin(), order.begin() + l.k, order.end(), before);
            if (!sorted) std::sort(order.begin(), order.begin() + l.k);
            for (int64_t j = 0; j < l.k; ++j) {
                const int64_t at = o * l.k * l.inner + j * l.inner + i;
                indices[at] = order[static_cast<size_t>(j)];
                values[at] = base[order[static_cast<size_t>(j)] * l.inner];
            }
        }
    }
}

}  // namespace

Status TopKKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", -1);
    mLargest = info.node.intAttribute("largest", 1) != 0;
    mSorted = info.node.intAttribute("sorted", 1) != 0;
    mKFromInput = info.opset >= 10;
    mK = info.node.intAttribute("k", 0);
    return Status::ok();
}

Status TopKKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    int64_t k = mK;
    if (mKFromInput) {
        QL_ASSIGN_OR_RETURN(auto given, readInt64Input(ctx, 1));
        if (given.size() != 1) return ctx.fail("K must hold one value");
        k = given[0];
    }
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(in.rank()));
    if (!axis)
        return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for rank " + std::to_string(in.rank()));
    const Shape& s = in.shape();
    const auto a = static_cast<size_t>(*axis);
    if (k < 0 || k > s[a])
        return ctx.fail("K = " + std::to_string(k) + " is outside [0, " + std::to_string(s[a]) + "] for axis " +
                        std::to_string(a));
    const Layout layout{shapeElementCount(Shape(s.begin(), s.begin() + *axis)), s[a],
                        shapeElementCount(Shape(s.begin() + *axis + 1, s.end())), k};
    Shape shape = s;
    shape[a] = k;
    Tensor& values = ctx.allocateOutput(0, in.dtype(), shape);
    Tensor indices(DataType::Int64, shape);
    const bool known = visitNumeric(in.dtype(), [&]<typename T>(T) {
        selectTopK(in.data<T>(), values.data<T>(), indices.data<int64_t>(), layout, mLargest, mSorted);
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported");
    if (ctx.outputCount() > 1) ctx.setOutput(1, std::move(indices));
    return Status::ok();
}

}  // namespace ql
