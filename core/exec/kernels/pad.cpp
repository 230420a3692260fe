#include "core/exec/kernels/pad.h"

#include <algorithm>
#include <cstring>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/type_dispatch.h"
#include "core/model/constant_values.h"

namespace ql {

namespace {

// The source coordinate of output coordinate `o` along an axis, or -1 for a constant-padded position.
int64_t sourceIndex(int64_t o, int64_t begin, int64_t n, PadKernel::Mode mode) {
    int64_t i = o - begin;
    if (i >= 0 && i < n) return i;
    if (n == 0) return -1;
    switch (mode) {
        case PadKernel::Mode::Constant:
            return -1;
        case PadKernel::Mode::Edge:
            return i < 0 ? 0 : n - 1;
        case PadKernel::Mode::Wrap:
            return ((i % n) + n) % n;
        case PadKernel::Mode::Reflect: {
            if (n == 1) return 0;
            const int64_t period = 2 * (n - 1);
            i = ((i % period) + period) % period;
            return i < n ? i : period - i;
        }
    }
    return -1;
}

// Per axis, the pads [begin..., end...] expanded to every axis (opset 18 may list only some axes).
Result<std::vector<int64_t>> fullPads(const KernelContext& ctx, std::vector<int64_t> pads, size_t rank) {
    if (ctx.hasInput(3)) {
        QL_ASSIGN_OR_RETURN(auto given, readInt64Input(ctx, 3));
        QL_ASSIGN_OR_RETURN(auto axes, normalizeAxes(ctx, given, static_cast<int64_t>(rank)));
        if (pads.size() != 2 * axes.size()) return ctx.fail("pads must hold 2 values per axis in axes");
        std::vector<int64_t> full(2 * rank, 0);
        for (size_t i = 0; i < axes.size(); ++i) {
            full[static_cast<size_t>(axes[i])] = pads[i];
            full[rank + static_cast<size_t>(axes[i])] = pads[axes.size() + i];
        }
        return full;
    }
    if (pads.size() != 2 * rank)
        return ctx.fail("pads has " + std::to_string(pads.size()) + " values; rank " + std::to_string(rank) +
                        " needs " + std::to_string(2 * rank));
    return pads;
}

// Writes the output row by row: the interior of a row is one block copy, pad positions copy their source
// element (reflect / edge / wrap) or the fill value; a row whose outer coordinates are padding is all fill.
struct PadRows {
    const std::vector<std::vector<int64_t>>& sources;  // per axis, per output coordinate; -1 = fill
    int64_t innerIn, innerBegin;                       // last axis: input size and begin pad
    const std::byte* fill;
    size_t size;

    void write(std::byte* dst, const std::byte* src, const Strides& inStrides, const Shape& shape) const {
        const size_t rank = shape.size();
        const int64_t inner = shape.back(), rows = shapeElementCount(shape) / inner;
        const int64_t first = std::clamp(innerBegin, int64_t{0}, inner);
        const int64_t last = std::clamp(innerBegin + innerIn, first, inner);
        std::vector<int64_t> pos(rank, 0);
        for (int64_t r = 0; r < rows; ++r, dst += inner * static_cast<int64_t>(size)) {
            int64_t base = 0;
            bool constantRow = false;
            for (size_t d = 0; d + 1 < rank; ++d) {
                const int64_t s = sources[d][static_cast<size_t>(pos[d])];
                constantRow = constantRow || s < 0;
                base += s * inStrides[d];
            }
            if (constantRow)
                fillBytes(dst, inner, fill, size);
            else
                writeRow(dst, src + base * static_cast<int64_t>(size), first, last);
            for (size_t d = rank - 1; d-- > 0;) {
                if (++pos[d] < shape[d]) break;
                pos[d] = 0;
            }
        }
    }

    void writeRow(std::byte* dst, const std::byte* srcRow, int64_t first, int64_t last) const {
        const auto n = static_cast<int64_t>(size);
        const std::vector<int64_t>& s = sources.back();
        auto padAt = [&](int64_t o) {
            const int64_t i = s[static_cast<size_t>(o)];
            std::memcpy(dst + o * n, i < 0 ? fill : srcRow + i * n, size);
        };
        for (int64_t o = 0; o < first; ++o) padAt(o);
        std::memcpy(dst + first * n, srcRow + (first - innerBegin) * n, static_cast<size_t>((last - first) * n));
        for (auto o = last; o < static_cast<int64_t>(s.size()); ++o) padAt(o);
    }
};

}  // namespace

Status PadKernel::init(const KernelInit& info) {
    const std::string mode = info.node.stringAttribute("mode", "constant");
    if (mode == "constant")
        mMode = Mode::Constant;
    else if (mode == "reflect")
        mMode = Mode::Reflect;
    else if (mode == "edge")
        mMode = Mode::Edge;
    else if (mode == "wrap")
        mMode = Mode::Wrap;
    else
        return info.fail("mode '" + mode + "' is not constant, reflect, edge or wrap");
    mFromInputs = info.opset >= 11;
    mPads = info.node.intsAttribute("pads");
    mValue = info.node.floatAttribute("value", 0.0f);
    const auto pads = mFromInputs && info.node.inputs.size() > 1 && info.node.inputs[1] != kNoId
                          ? constantInt64s(info.graph, info.node.inputs[1])
                          : std::optional<std::vector<int64_t>>(mPads);
    mNoPadding = pads && !pads->empty() && std::all_of(pads->begin(), pads->end(), [](int64_t p) { return p == 0; });
    return Status::ok();
}

Result<std::vector<std::byte>> PadKernel::fillValue(const KernelContext& ctx, DataType dtype) const {
    // The constant_value input (same dtype as data), the float attribute before opset 11, or zero.
    const size_t size = dataTypeSize(dtype);
    std::vector<std::byte> fill(size, std::byte{0});
    if (mFromInputs && ctx.hasInput(2) && ctx.input(2).elementCount() > 0) {
        if (ctx.input(2).dtype() != dtype) return ctx.fail("constant_value must have the dtype of data");
        std::memcpy(fill.data(), ctx.input(2).rawData(), size);
    } else if (!mFromInputs) {
        visitNumeric(dtype, [&]<typename T>(T) {
            const T v = fromArithmetic<T>(static_cast<typename ArithmeticOf<T>::type>(mValue));
            std::memcpy(fill.data(), &v, size);
        });
    }
    return fill;
}

Status PadKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (!in.isPlain()) {  // only with constant zero pads (layoutInputs)
        ctx.setOutput(0, mKeepLayout ? in : onednn::toPlain(in));
        return Status::ok();
    }
    std::vector<int64_t> pads = mPads;
    if (mFromInputs) {
        QL_ASSIGN_OR_RETURN(pads, readInt64Input(ctx, 1));
    }
    QL_ASSIGN_OR_RETURN(pads, fullPads(ctx, std::move(pads), in.rank()));
    const size_t rank = in.rank(), size = dataTypeSize(in.dtype());
    if (rank == 0) {
        ctx.setOutput(0, in);
        return Status::ok();
    }
    Shape shape(rank);
    std::vector<std::vector<int64_t>> sources(rank);
    for (size_t d = 0; d < rank; ++d) {
        shape[d] = in.dim(d) + pads[d] + pads[rank + d];
        if (shape[d] < 0) return ctx.fail("pads crop axis " + std::to_string(d) + " below zero");
        if (mMode != Mode::Constant && in.dim(d) == 0 && shape[d] > 0)
            return ctx.fail("cannot pad an empty axis in a non-constant mode");
        for (int64_t o = 0; o < shape[d]; ++o) sources[d].push_back(sourceIndex(o, pads[d], in.dim(d), mMode));
    }
    QL_ASSIGN_OR_RETURN(auto fill, fillValue(ctx, in.dtype()));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    if (out.elementCount() == 0) return Status::ok();
    const PadRows rows{sources, in.dim(rank - 1), pads[rank - 1], fill.data(), size};
    rows.write(bytesOf(out), bytesOf(in), contiguousStrides(in.shape()), shape);
    return Status::ok();
}

}  // namespace ql
