#include "core/engine/layer_precision.h"

#include <span>

namespace ql {

namespace {

// Bits per element, so "narrowest" is well defined; 0 for types that are not compute types.
int computeBits(EnginePrecision precision) {
    switch (precision) {
        case EnginePrecision::Int4:
        case EnginePrecision::Fp4:
            return 4;
        case EnginePrecision::Int8:
        case EnginePrecision::Fp8:
            return 8;
        case EnginePrecision::Fp16:
        case EnginePrecision::Bf16:
            return 16;
        case EnginePrecision::Fp32:
            return 32;
        default:
            return 0;
    }
}

EnginePrecision narrower(EnginePrecision a, EnginePrecision b) {
    if (computeBits(b) == 0) return a;
    if (computeBits(a) == 0 || computeBits(b) < computeBits(a)) return b;
    return a;
}

EnginePrecision narrowest(std::span<const EngineTensor> tensors) {
    EnginePrecision result = EnginePrecision::Unknown;
    for (const EngineTensor& t : tensors) result = narrower(result, t.precision);
    return result;
}

}  // namespace

EnginePrecision inputPrecision(const EngineLayer& layer) {
    return narrowest(layer.inputs);
}

EnginePrecision layerPrecision(const EngineLayer& layer) {
    if (layer.isReformat()) return narrowest(layer.outputs);
    const EnginePrecision computed = narrower(inputPrecision(layer), layer.weights);
    if (computed != EnginePrecision::Unknown) return computed;
    return narrowest(layer.outputs);
}

}  // namespace ql
