#include "core/model/tensor_data.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <limits>

#include "core/common/element_count.h"
#include "core/common/half.h"
#include "core/model/graph.h"

namespace ql {

int64_t tensorElementCount(const onnx::TensorProto& tensor) {
    const auto count = checkedElementCount({tensor.dims().data(), static_cast<size_t>(tensor.dims_size())});
    return count.value_or(-1);
}

namespace {

template <typename Out, typename Field>
std::vector<std::byte> packField(const Field& field) {
    std::vector<std::byte> bytes(static_cast<size_t>(field.size()) * sizeof(Out));
    for (int i = 0; i < field.size(); ++i) {
        const Out v = static_cast<Out>(field.Get(i));
        std::memcpy(bytes.data() + static_cast<size_t>(i) * sizeof(Out), &v, sizeof(Out));
    }
    return bytes;
}

template <typename T>
T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

template <typename Out>
std::vector<Out> convertBytes(std::span<const std::byte> bytes, DataType dtype) {
    const size_t size = dataTypeSize(dtype);
    std::vector<Out> out;
    if (size == 0) return out;
    const size_t n = bytes.size() / size;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        const std::byte* p = bytes.data() + i * size;
        switch (dtype) {
            case DataType::Float:
                out.push_back(static_cast<Out>(load<float>(p)));
                break;
            case DataType::Double:
                out.push_back(static_cast<Out>(load<double>(p)));
                break;
            case DataType::Float16:
                out.push_back(static_cast<Out>(halfToFloat(load<uint16_t>(p))));
                break;
            case DataType::BFloat16:
                out.push_back(static_cast<Out>(bfloat16ToFloat(load<uint16_t>(p))));
                break;
            case DataType::Int8:
                out.push_back(static_cast<Out>(load<int8_t>(p)));
                break;
            case DataType::UInt8:
            case DataType::Bool:
                out.push_back(static_cast<Out>(load<uint8_t>(p)));
                break;
            case DataType::Int16:
                out.push_back(static_cast<Out>(load<int16_t>(p)));
                break;
            case DataType::UInt16:
                out.push_back(static_cast<Out>(load<uint16_t>(p)));
                break;
            case DataType::Int32:
                out.push_back(static_cast<Out>(load<int32_t>(p)));
                break;
            case DataType::UInt32:
                out.push_back(static_cast<Out>(load<uint32_t>(p)));
                break;
            case DataType::Int64:
                out.push_back(static_cast<Out>(load<int64_t>(p)));
                break;
            case DataType::UInt64:
                out.push_back(static_cast<Out>(load<uint64_t>(p)));
                break;
            default:
                return {};
        }
    }
    return out;
}

}  // namespace

std::vector<float> bytesAsFloats(std::span<const std::byte> bytes, DataType dtype) {
    return convertBytes<float>(bytes, dtype);
}
std::vector<int64_t> bytesAsInt64s(std::span<const std::byte> bytes, DataType dtype) {
    return convertBytes<int64_t>(bytes, dtype);
}

Result<std::vector<std::byte>> tensorBytes(const onnx::TensorProto& tensor, std::span<const std::byte> raw) {
    const DataType dtype = dataTypeFromOnnx(tensor.data_type());
    const size_t elementSize = dataTypeSize(dtype);
    if (elementSize == 0)
        return unsupported("tensor '" + tensor.name() + "' has data type " + dataTypeName(dtype) +
                           ", which has no numeric contents");
    const auto byteSize = checkedByteSize({tensor.dims().data(), static_cast<size_t>(tensor.dims_size())}, elementSize);
    if (!byteSize || *byteSize > std::numeric_limits<size_t>::max())
        return invalidModel("tensor '" + tensor.name() +
                            "' has a negative dimension or more elements than fit in memory");
    const auto expected = static_cast<size_t>(*byteSize);
    std::vector<std::byte> bytes;
    if (!raw.empty() || tensor.data_location() == onnx::TensorProto::EXTERNAL) {
        bytes.assign(raw.begin(), raw.end());
    } else if (tensor.has_raw_data()) {
        const auto& r = tensor.raw_data();
        bytes.resize(r.size());
        if (!r.empty()) std::memcpy(bytes.data(), r.data(), r.size());  // an empty vector's data() may be null
    } else {
        switch (dtype) {
            case DataType::Float:
                bytes = packField<float>(tensor.float_data());
                break;
            case DataType::Double:
                bytes = packField<double>(tensor.double_data());
                break;
            case DataType::Int64:
                bytes = packField<int64_t>(tensor.int64_data());
                break;
            case DataType::UInt32:
                bytes = packField<uint32_t>(tensor.uint64_data());
                break;
            case DataType::UInt64:
                bytes = packField<uint64_t>(tensor.uint64_data());
                break;
            case DataType::Int32:
                bytes = packField<int32_t>(tensor.int32_data());
                break;
            case DataType::Int16:
                bytes = packField<int16_t>(tensor.int32_data());
                break;
            case DataType::UInt16:
            case DataType::Float16:
            case DataType::BFloat16:
                bytes = packField<uint16_t>(tensor.int32_data());
                break;
            case DataType::Int8:
                bytes = packField<int8_t>(tensor.int32_data());
                break;
            case DataType::UInt8:
            case DataType::Bool:
                bytes = packField<uint8_t>(tensor.int32_data());
                break;
            case DataType::Complex64:
                bytes = packField<float>(tensor.float_data());
                break;
            case DataType::Complex128:
                bytes = packField<double>(tensor.double_data());
                break;
            default:
                break;
        }
    }
    if (bytes.size() != expected)
        return invalidModel("tensor '" + tensor.name() + "' holds " + std::to_string(bytes.size()) +
                            " bytes of data but its shape and type need " + std::to_string(expected));
    return bytes;
}

Result<std::vector<std::byte>> tensorBytes(const Initializer& initializer) {
    return tensorBytes(*initializer.proto, initializer.rawBytes);
}

Result<std::vector<float>> tensorAsFloats(const onnx::TensorProto& tensor, std::span<const std::byte> raw) {
    QL_ASSIGN_OR_RETURN(auto bytes, tensorBytes(tensor, raw));
    return bytesAsFloats(bytes, dataTypeFromOnnx(tensor.data_type()));
}

Result<std::vector<int64_t>> tensorAsInt64s(const onnx::TensorProto& tensor, std::span<const std::byte> raw) {
    QL_ASSIGN_OR_RETURN(auto bytes, tensorBytes(tensor, raw));
    return bytesAsInt64s(bytes, dataTypeFromOnnx(tensor.data_type()));
}

Result<onnx::TensorProto> constantNodeTensor(const onnx::NodeProto& node) {
    for (const auto& attr : node.attribute()) {
        onnx::TensorProto t;
        if (attr.name() == "value" && attr.has_t()) {
            t = attr.t();
        } else if (attr.name() == "value_float") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_float_data(attr.f());
        } else if (attr.name() == "value_floats") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_dims(attr.floats_size());
            for (float f : attr.floats()) t.add_float_data(f);
        } else if (attr.name() == "value_int") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_int64_data(attr.i());
        } else if (attr.name() == "value_ints") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_dims(attr.ints_size());
            for (int64_t i : attr.ints()) t.add_int64_data(i);
        } else {
            continue;
        }
        if (node.output_size() > 0) t.set_name(node.output(0));
        return t;
    }
    return unsupported("Constant node '" + node.name() + "' has no numeric value attribute");
}

}  // namespace ql
