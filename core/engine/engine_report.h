#pragma once
// What TensorRT built, as trtexec and the engine inspector describe it: the engine's layers in execution order
// (fused names, layer types, tensor formats, weights types, tactics, the ONNX layers they came from) and, when a
// profile was read, the time of each. Read by layer_info_reader.h and profile_reader.h; docs/engine-reports.md
// describes the formats.
#include <optional>
#include <string>
#include <vector>

namespace ql {

// A tensor's element type as the engine stores it. Only int8/fp8/fp16/bf16/fp32 (and int4/fp4) say how a layer
// computes; the integer and bool types carry indices, shapes and masks.
enum class EnginePrecision { Unknown, Int4, Fp4, Int8, Fp8, Fp16, Bf16, Fp32, Int32, Int64, UInt8, Bool };

// "int8", "fp16", "fp32", ...; "unknown" for Unknown.
const char* enginePrecisionName(EnginePrecision precision);
// True for the types a layer computes in (int4, fp4, int8, fp8, fp16, bf16, fp32).
bool isComputePrecision(EnginePrecision precision);

// Which schema the layer information follows (trtexec --exportLayerInfo; docs/engine-reports.md).
enum class LayerInfoSchema {
    Trt10,  // 8.x/10.x: "Bindings" (names), "Format/Datatype" per tensor
    Trt11,  // 11.x: "I/O Tensors" (objects), format and data type in separate fields
};

const char* layerInfoSchemaName(LayerInfoSchema schema);  // "8.x/10.x", "11.x"

struct EngineTensor {
    std::string name;
    std::vector<int64_t> dimensions;
    std::string format;  // as written: "Thirty-two wide channel vectorized row major Int8 format", "Half", ...
    EnginePrecision precision = EnginePrecision::Unknown;
};

struct EngineLayer {
    std::string name;  // often fused: "conv1.weight + QuantizeLinear_7 + Conv_9 + PWN(Clip_13)"
    std::string type;  // "CaskConvolution", "Reformat", "kgen", ...; empty when the engine kept names only
    std::vector<EngineTensor> inputs;
    std::vector<EngineTensor> outputs;
    EnginePrecision weights = EnginePrecision::Unknown;  // "Weights": {"Type": "Int8"} when the layer has any
    std::string tactic;                                  // TacticName, else TacticValue
    std::string origin;                                  // "QDQ", "REFORMAT", ... when given
    std::string metadata;                                // "[ONNX Layer: /conv1/Conv]..." (10.x and later)
    std::optional<double> timeMs;                        // average per inference, from the profile
    bool fromProfileOnly = false;                        // named by the profile, absent from the layer information

    // A layer that only converts formats or types: TensorRT's reformats and the Q/DQ it could not fuse.
    bool isReformat() const;
};

struct EngineIoTensor {
    std::string name;
    std::string mode;  // "Input", "Output"; empty in the 8.x/10.x "Bindings" list
    EnginePrecision precision = EnginePrecision::Unknown;
};

struct EngineReport {
    std::string layersFile;
    std::string profileFile;  // empty when no profile was read
    LayerInfoSchema schema = LayerInfoSchema::Trt10;
    std::vector<EngineLayer> layers;  // engine order
    std::vector<EngineIoTensor> ioTensors;
    bool hasProfile() const { return !profileFile.empty(); }
    // The sum of the layer times; nullopt without a profile.
    std::optional<double> totalTimeMs() const;
};

}  // namespace ql
