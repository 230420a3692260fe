#pragma once
// Converting between ql::Tensor and ONNX TensorProto, and reading / writing TensorProto `.pb` files (the
// input_N.pb / output_N.pb files of the ONNX backend test folders).
#include <string>

#include "core/common/status.h"
#include "core/exec/tensor.h"

namespace onnx {
class TensorProto;
}

namespace ql {

struct NamedTensor {
    std::string name;  // may be empty (the .pb files of some test folders carry no name)
    Tensor tensor;
};

// A tensor with owned storage holding the proto's values (raw_data or typed fields; not external data).
Result<Tensor> tensorFromProto(const onnx::TensorProto& proto);
onnx::TensorProto tensorToProto(const std::string& name, const Tensor& tensor);

Result<NamedTensor> readTensorProtoFile(const std::string& path);
Status writeTensorProtoFile(const std::string& path, const std::string& name, const Tensor& tensor);

}  // namespace ql
