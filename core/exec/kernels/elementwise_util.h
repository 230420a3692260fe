#pragma once
// Shared machinery of the elementwise, reduction and normalization kernels: numpy multidirectional
// broadcasting, dtype dispatch (to a template over the C++ element type), float16/bfloat16 promotion and
// a chunked parallel loop. Inner loops are templates over the operation, so nothing is called per element
// through a pointer.
#include <omp.h>
#include <algorithm>
#include <cstdint>
#include <functional>

#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/kernels/copy_util.h"  // broadcastShapes, normalizeAxis, readInt64Input
#include "core/exec/tensor.h"

namespace ql {

template <typename T>
struct TypeTag {
    using type = T;
};

// Calls f(TypeTag<T>{}) for the C++ type a kernel computes in: numeric dtypes and bool, but not
// float16/bfloat16, which these kernels promote to float first (type_dispatch.h's visitNumeric passes them
// as storage types instead). Returns false when `dtype` is not one of those.
template <typename F>
bool visitComputeType(DataType dtype, F&& f) {
    switch (dtype) {
        case DataType::Float:
            f(TypeTag<float>{});
            return true;
        case DataType::Double:
            f(TypeTag<double>{});
            return true;
        case DataType::Int8:
            f(TypeTag<int8_t>{});
            return true;
        case DataType::UInt8:
            f(TypeTag<uint8_t>{});
            return true;
        case DataType::Int16:
            f(TypeTag<int16_t>{});
            return true;
        case DataType::UInt16:
            f(TypeTag<uint16_t>{});
            return true;
        case DataType::Int32:
            f(TypeTag<int32_t>{});
            return true;
        case DataType::UInt32:
            f(TypeTag<uint32_t>{});
            return true;
        case DataType::Int64:
            f(TypeTag<int64_t>{});
            return true;
        case DataType::UInt64:
            f(TypeTag<uint64_t>{});
            return true;
        case DataType::Bool:
            f(TypeTag<bool>{});
            return true;
        default:
            return false;
    }
}

// Like visitComputeType, for float and double only.
template <typename F>
bool visitFloating(DataType dtype, F&& f) {
    switch (dtype) {
        case DataType::Float:
            f(TypeTag<float>{});
            return true;
        case DataType::Double:
            f(TypeTag<double>{});
            return true;
        default:
            return false;
    }
}

template <typename T>
constexpr DataType dataTypeOf() {
    if constexpr (std::is_same_v<T, float>) return DataType::Float;
    if constexpr (std::is_same_v<T, double>) return DataType::Double;
    if constexpr (std::is_same_v<T, int8_t>) return DataType::Int8;
    if constexpr (std::is_same_v<T, uint8_t>) return DataType::UInt8;
    if constexpr (std::is_same_v<T, int16_t>) return DataType::Int16;
    if constexpr (std::is_same_v<T, uint16_t>) return DataType::UInt16;
    if constexpr (std::is_same_v<T, int32_t>) return DataType::Int32;
    if constexpr (std::is_same_v<T, uint32_t>) return DataType::UInt32;
    if constexpr (std::is_same_v<T, int64_t>) return DataType::Int64;
    if constexpr (std::is_same_v<T, uint64_t>) return DataType::UInt64;
    if constexpr (std::is_same_v<T, bool>) return DataType::Bool;
    return DataType::Undefined;
}

inline bool isHalfType(DataType dtype) {
    return dtype == DataType::Float16 || dtype == DataType::BFloat16;
}

// float16/bfloat16 are computed in float: these convert a tensor to float and back (round to nearest even).
Tensor toFloatTensor(const Tensor& half);
Tensor fromFloatTensor(const Tensor& values, DataType halfType);
// The input as float when it is float16/bfloat16, else the input itself (no copy).
Tensor promoteHalf(const Tensor& t);
// Sets output i to `result`, first rounded back to `dtype` when that is float16/bfloat16 (the kernel
// computed in float).
void setOutputAs(KernelContext& ctx, size_t i, Tensor result, DataType dtype);
// "does not support element type INT8"
Status unsupportedType(const KernelContext& ctx, DataType dtype);

// Integer arithmetic wraps around (as numpy does) instead of overflowing signed types.
template <typename T, typename Op>
T wrapping(T a, T b, Op op) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        return static_cast<T>(op(static_cast<uint64_t>(a), static_cast<uint64_t>(b)));
    else
        return static_cast<T>(op(a, b));
}

// The broadcast shape of the inputs, or a node error naming the shapes.
Result<Shape> broadcastInputs(const KernelContext& ctx, std::span<const Tensor* const> inputs);

// The two inputs of a binary op (Add, Equal, Mod, ...): both present, of one element type, float16/bfloat16
// promoted to float, and their broadcast shape.
struct BinaryOperands {
    Tensor a;
    Tensor b;
    Shape shape;
};
Result<BinaryOperands> binaryOperands(const KernelContext& ctx);

// Splits [0, n) over OpenMP threads, one contiguous equal share each, using no more threads than there are
// `grain`-sized pieces of work (below two, it runs on the caller's thread). Equal shares rather than grain-sized
// chunks: 13 chunks on 2 threads left one thread idle for a chunk's time at the end of every pass.
template <typename F>
void parallelFor(int64_t n, int64_t grain, F&& f) {
    const int64_t pieces = (n + grain - 1) / std::max<int64_t>(1, grain);
    const int threads = static_cast<int>(std::min<int64_t>(pieces, omp_get_max_threads()));
    if (threads <= 1) {
        if (n > 0) f(int64_t{0}, n);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const int64_t t = omp_get_thread_num(), count = omp_get_num_threads();
        const int64_t begin = n * t / count, end = n * (t + 1) / count;
        if (begin < end) f(begin, end);
    }
}

inline constexpr int64_t kElementwiseGrain = 1 << 15;

// The layout of a broadcast operation, with adjacent dimensions merged so the inner loop is as long as
// possible. strides[k][d] is input k's element stride for merged dim d (0 where it is broadcast); in the
// innermost dim every stride is 0 or 1.
struct BroadcastPlan {
    std::vector<int64_t> dims;  // merged output dims, outermost first (at least one)
    std::vector<std::vector<int64_t>> strides;
    // Offsets of every input at the start of output row `row` (a row is one run of the innermost dim).
    void rowOffsets(int64_t row, int64_t* offsets) const;
};
BroadcastPlan planBroadcast(std::span<const Shape> inputs, const Shape& out);

// Calls row(rowIndex, offsets, innerLength, innerStrides) for every row of the output, in parallel chunks.
template <typename F>
void forEachBroadcastRow(std::span<const Shape> inputs, const Shape& out, F&& row) {
    const int64_t total = shapeElementCount(out);
    if (total == 0) return;
    const BroadcastPlan plan = planBroadcast(inputs, out);
    const int64_t inner = plan.dims.back();
    std::vector<int64_t> innerStrides;
    for (const auto& s : plan.strides) innerStrides.push_back(s.back());
    const int64_t rowGrain = std::max<int64_t>(1, kElementwiseGrain / inner);
    parallelFor(total / inner, rowGrain, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> offsets(inputs.size());
        for (int64_t r = begin; r < end; ++r) {
            plan.rowOffsets(r, offsets.data());
            row(r, offsets.data(), inner, innerStrides.data());
        }
    });
}

// out[i] = op(a[i'], b[i'']) with numpy broadcasting. The inner run has input strides 0 or 1, so the
// compiler vectorizes each of the four variants.
template <typename A, typename B, typename O, typename Op>
void broadcastBinary(const A* a, const Shape& shapeA, const B* b, const Shape& shapeB, O* out, const Shape& shapeOut,
                     Op op) {
    const Shape shapes[] = {shapeA, shapeB};
    forEachBroadcastRow(shapes, shapeOut, [&](int64_t row, const int64_t* off, int64_t inner, const int64_t* s) {
        const A* __restrict pa = a + off[0];
        const B* __restrict pb = b + off[1];
        O* __restrict po = out + row * inner;
        if (s[0] == 1 && s[1] == 1) {
#pragma omp simd
            for (int64_t i = 0; i < inner; ++i) po[i] = op(pa[i], pb[i]);
        } else if (s[0] == 0 && s[1] == 1) {
            const A va = *pa;
#pragma omp simd
            for (int64_t i = 0; i < inner; ++i) po[i] = op(va, pb[i]);
        } else if (s[0] == 1 && s[1] == 0) {
            const B vb = *pb;
#pragma omp simd
            for (int64_t i = 0; i < inner; ++i) po[i] = op(pa[i], vb);
        } else {
            const O v = op(*pa, *pb);
            for (int64_t i = 0; i < inner; ++i) po[i] = v;
        }
    });
}

// out = op(a, b) over tensors of the same element type T, output type O, with broadcasting.
template <typename T, typename O, typename Op>
void broadcastBinary(const Tensor& a, const Tensor& b, Tensor& out, Op op) {
    broadcastBinary(a.data<T>(), a.shape(), b.data<T>(), b.shape(), out.data<O>(), out.shape(), op);
}

// out[i] = op(in[i]) in parallel chunks.
template <typename I, typename O, typename Op>
void unaryMap(const I* in, O* out, int64_t n, Op op) {
    // No __restrict: in-place use (in == out) is allowed.
    parallelFor(n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
#pragma omp simd
        for (int64_t i = begin; i < end; ++i) out[i] = op(in[i]);
    });
}

// `t` repeated to `shape` (numpy broadcasting; the caller has checked that it applies).
Tensor broadcastTo(const Tensor& t, const Shape& shape);
// Any numeric tensor's values as double (parameters such as scales, means and bounds).
std::vector<double> valuesAsDouble(const Tensor& t);

// Dimensions around an axis: outer (before), the axis, inner (after).
struct AxisSplit {
    int64_t outer = 1, axis = 1, inner = 1;
};
AxisSplit splitAtAxis(const Shape& shape, int64_t axis);

}  // namespace ql
