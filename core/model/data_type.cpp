#include "core/model/data_type.h"

namespace ql {

const char* dataTypeName(DataType type) {
    switch (type) {
        case DataType::Undefined:
            return "UNDEFINED";
        case DataType::Float:
            return "FLOAT";
        case DataType::UInt8:
            return "UINT8";
        case DataType::Int8:
            return "INT8";
        case DataType::UInt16:
            return "UINT16";
        case DataType::Int16:
            return "INT16";
        case DataType::Int32:
            return "INT32";
        case DataType::Int64:
            return "INT64";
        case DataType::String:
            return "STRING";
        case DataType::Bool:
            return "BOOL";
        case DataType::Float16:
            return "FLOAT16";
        case DataType::Double:
            return "DOUBLE";
        case DataType::UInt32:
            return "UINT32";
        case DataType::UInt64:
            return "UINT64";
        case DataType::Complex64:
            return "COMPLEX64";
        case DataType::Complex128:
            return "COMPLEX128";
        case DataType::BFloat16:
            return "BFLOAT16";
    }
    return "UNKNOWN";
}

size_t dataTypeSize(DataType type) {
    switch (type) {
        case DataType::Bool:
        case DataType::UInt8:
        case DataType::Int8:
            return 1;
        case DataType::UInt16:
        case DataType::Int16:
        case DataType::Float16:
        case DataType::BFloat16:
            return 2;
        case DataType::Float:
        case DataType::Int32:
        case DataType::UInt32:
            return 4;
        case DataType::Int64:
        case DataType::UInt64:
        case DataType::Double:
        case DataType::Complex64:
            return 8;
        case DataType::Complex128:
            return 16;
        case DataType::String:
        case DataType::Undefined:
            return 0;
    }
    return 0;
}

DataType dataTypeFromOnnx(int32_t onnxType) {
    if (onnxType < 0 || onnxType > static_cast<int32_t>(DataType::BFloat16)) return DataType::Undefined;
    return static_cast<DataType>(onnxType);
}

}  // namespace ql
