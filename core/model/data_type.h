#pragma once
// Element types, numbered as onnx::TensorProto_DataType so values pass through unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

namespace ql {

enum class DataType : int32_t {
    Undefined = 0,
    Float = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Double = 11,
    UInt32 = 12,
    UInt64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
};

// ONNX spelling: "FLOAT", "INT64", ...
const char* dataTypeName(DataType type);
// Bytes per element; 0 for String and Undefined.
size_t dataTypeSize(DataType type);
DataType dataTypeFromOnnx(int32_t onnxType);

}  // namespace ql
