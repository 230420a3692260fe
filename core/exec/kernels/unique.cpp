#include "core/exec/kernels/unique.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

// The elements as values that compare as the originals do: long double holds every int64 and double exactly.
std::vector<long double> comparableValues(const Tensor& x) {
    const DataType t = x.dtype();
    if (t == DataType::Double) return {x.data<double>(), x.data<double>() + x.elementCount()};
    if (t == DataType::Float || t == DataType::Float16 || t == DataType::BFloat16) {
        const std::vector<float> f = x.toFloats();
        return {f.begin(), f.end()};
    }
    const std::vector<int64_t> i = x.toInt64s();
    return {i.begin(), i.end()};
}

// Slice s of the input along the axis, as values to compare: [outer][length][inner] seen as length slices.
std::vector<long double> sliceValues(const std::vector<long double>& x, int64_t s, int64_t outer, int64_t length,
                                     int64_t inner) {
    std::vector<long double> slice;
    slice.reserve(static_cast<size_t>(outer * inner));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) slice.push_back(x[static_cast<size_t>((o * length + s) * inner + i)]);
    return slice;
}

}  // namespace

Status UniqueKernel::init(const KernelInit& info) {
    mSorted = info.node.intAttribute("sorted", 1) != 0;
    mHasAxis = info.node.attribute("axis") != nullptr;
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

Status UniqueKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0)) return ctx.fail("needs an input");
    const Tensor x = mHasAxis ? ctx.input(0) : ctx.input(0).reshaped({ctx.input(0).elementCount()});
    const auto axis = normalizeAxis(mHasAxis ? mAxis : 0, static_cast<int64_t>(x.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(mAxis) + " is out of range for " + shapeString(x.shape()));
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.rank(); ++d) {
        if (static_cast<int64_t>(d) < *axis) outer *= x.dim(d);
        if (static_cast<int64_t>(d) > *axis) inner *= x.dim(d);
    }
    const int64_t length = x.dim(static_cast<size_t>(*axis));
    const std::vector<long double> values = comparableValues(x);
    // First occurrence of each distinct slice, in input order; then sorted by value when asked.
    std::map<std::vector<long double>, int64_t> seen;
    std::vector<int64_t> firsts, inverse(static_cast<size_t>(length)), counts;
    std::vector<std::vector<long double>> slices;
    for (int64_t s = 0; s < length; ++s) {
        std::vector<long double> slice = sliceValues(values, s, outer, length, inner);
        auto [it, added] = seen.emplace(slice, static_cast<int64_t>(firsts.size()));
        if (added) firsts.push_back(s), counts.push_back(0), slices.push_back(std::move(slice));
        inverse[static_cast<size_t>(s)] = it->second;
        ++counts[static_cast<size_t>(it->second)];
    }
    std::vector<int64_t> order(firsts.size());
    std::iota(order.begin(), order.end(), 0);
    if (mSorted) std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return slices[a] < slices[b]; });
    std::vector<int64_t> rank(order.size());
    for (size_t i = 0; i < order.size(); ++i) rank[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
    const auto unique = static_cast<int64_t>(order.size());
    Shape shape = x.shape();
    shape[static_cast<size_t>(*axis)] = unique;
    Tensor& y = ctx.allocateOutput(0, x.dtype(), shape);
    std::vector<int64_t> indices, sortedCounts;
    for (int64_t u = 0; u < unique; ++u) {
        const int64_t first = firsts[static_cast<size_t>(order[static_cast<size_t>(u)])];
        for (int64_t o = 0; o < outer; ++o)
            copyElements(y, (o * unique + u) * inner, x, (o * length + first) * inner, inner);
        indices.push_back(first);
        sortedCounts.push_back(counts[static_cast<size_t>(order[static_cast<size_t>(u)])]);
    }
    for (int64_t& i : inverse) i = rank[static_cast<size_t>(i)];
    const std::vector<int64_t>* extra[] = {&indices, &inverse, &sortedCounts};
    for (size_t o = 1; o < ctx.outputCount() && o <= 3; ++o)
        ctx.setOutput(o,
                      Tensor::fromVector(DataType::Int64, {static_cast<int64_t>(extra[o - 1]->size())}, *extra[o - 1]));
    return Status::ok();
}

}  // namespace ql
