#pragma once
// Reading the contents of ONNX TensorProtos (initializers and Constant values) in every storage form:
// raw_data, external data, or the typed repeated fields.
#include <cstddef>
#include <span>
#include <vector>

#include "core/common/status.h"
#include "core/model/data_type.h"

namespace onnx {
class TensorProto;
class NodeProto;
}  // namespace onnx

namespace ql {

struct Initializer;

// -1 when a dimension is negative or the product overflows an int64 (a file can declare any shape).
int64_t tensorElementCount(const onnx::TensorProto& tensor);

// The element bytes in little-endian layout. `raw` is the tensor's raw or external bytes if resolved
// (e.g. Initializer::rawBytes); otherwise raw_data or the typed fields of the proto are used.
Result<std::vector<std::byte>> tensorBytes(const onnx::TensorProto& tensor, std::span<const std::byte> raw = {});
Result<std::vector<std::byte>> tensorBytes(const Initializer& initializer);

// Element values converted to float / int64 (any numeric dtype).
Result<std::vector<float>> tensorAsFloats(const onnx::TensorProto& tensor, std::span<const std::byte> raw = {});
Result<std::vector<int64_t>> tensorAsInt64s(const onnx::TensorProto& tensor, std::span<const std::byte> raw = {});
std::vector<float> bytesAsFloats(std::span<const std::byte> bytes, DataType dtype);
std::vector<int64_t> bytesAsInt64s(std::span<const std::byte> bytes, DataType dtype);

// The tensor a Constant node produces (its `value` attribute, or value_float(s)/value_int(s)), or null.
Result<onnx::TensorProto> constantNodeTensor(const onnx::NodeProto& node);

}  // namespace ql
