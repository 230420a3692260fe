#pragma once
// The `reduction` attribute shared by ScatterElements and ScatterND: how an update combines with the value
// already in the output (none replaces; add/mul from opset 16; max/min from 18).
#include <algorithm>
#include <cstddef>
#include <span>
#include <string>

#include "core/exec/kernel.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

enum class ScatterReduction { None, Add, Mul, Max, Min };

inline Result<ScatterReduction> parseScatterReduction(const KernelInit& info) {
    const std::string r = info.node.stringAttribute("reduction", "none");
    if (r == "none") return ScatterReduction::None;
    if (r == "add") return ScatterReduction::Add;
    if (r == "mul") return ScatterReduction::Mul;
    if (r == "max") return ScatterReduction::Max;
    if (r == "min") return ScatterReduction::Min;
    return info.fail("reduction '" + r + "' is not one of none, add, mul, max, min");
}

// For each j: out[dstOffsets[j] + i] = reduce(out[...], updates[j * count + i]) for i < count, in order, so
// repeated indices accumulate.
template <typename T>
void scatterInto(T* out, const T* updates, std::span<const int64_t> dstOffsets, int64_t count, ScatterReduction r) {
    using A = typename ArithmeticOf<T>::type;
    for (size_t j = 0; j < dstOffsets.size(); ++j) {
        T* dst = out + dstOffsets[j];
        const T* src = updates + static_cast<int64_t>(j) * count;
        for (int64_t i = 0; i < count; ++i) {
            if (r == ScatterReduction::None) {
                dst[i] = src[i];
                continue;
            }
            const A a = toArithmetic(dst[i]), b = toArithmetic(src[i]);
            A v{};
            switch (r) {
                case ScatterReduction::Add:
                    v = static_cast<A>(a + b);
                    break;
                case ScatterReduction::Mul:
                    v = static_cast<A>(a * b);
                    break;
                case ScatterReduction::Max:
                    v = std::max(a, b);
                    break;
                default:
                    v = std::min(a, b);
                    break;
            }
            dst[i] = fromArithmetic<T>(v);
        }
    }
}

}  // namespace ql
