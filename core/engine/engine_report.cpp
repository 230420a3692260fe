#include "core/engine/engine_report.h"

namespace ql {

const char* enginePrecisionName(EnginePrecision precision) {
    switch (precision) {
        case EnginePrecision::Int4:
            return "int4";
        case EnginePrecision::Fp4:
            return "fp4";
        case EnginePrecision::Int8:
            return "int8";
        case EnginePrecision::Fp8:
            return "fp8";
        case EnginePrecision::Fp16:
            return "fp16";
        case EnginePrecision::Bf16:
            return "bf16";
        case EnginePrecision::Fp32:
            return "fp32";
        case EnginePrecision::Int32:
            return "int32";
        case EnginePrecision::Int64:
            return "int64";
        case EnginePrecision::UInt8:
            return "uint8";
        case EnginePrecision::Bool:
            return "bool";
        case EnginePrecision::Unknown:
            break;
    }
    return "unknown";
}

bool isComputePrecision(EnginePrecision precision) {
    switch (precision) {
        case EnginePrecision::Int4:
        case EnginePrecision::Fp4:
        case EnginePrecision::Int8:
        case EnginePrecision::Fp8:
        case EnginePrecision::Fp16:
        case EnginePrecision::Bf16:
        case EnginePrecision::Fp32:
            return true;
        default:
            return false;
    }
}

const char* layerInfoSchemaName(LayerInfoSchema schema) {
    return schema == LayerInfoSchema::Trt11 ? "11.x" : "8.x/10.x";
}

bool EngineLayer::isReformat() const {
    // Reformat layers of every version; the profile-only entries are TensorRT's "Reformatting CopyNode for ...".
    return type == "Reformat" || origin == "REFORMAT" || name.starts_with("Reformatting CopyNode for ");
}

std::optional<double> EngineReport::totalTimeMs() const {
    if (!hasProfile()) return std::nullopt;
    double total = 0.0;
    for (const EngineLayer& layer : layers) total += layer.timeMs.value_or(0.0);
    return total;
}

}  // namespace ql
