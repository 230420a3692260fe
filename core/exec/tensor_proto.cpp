#include "core/exec/tensor_proto.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/common/atomic_file.h"
#include "core/model/tensor_data.h"

namespace ql {

Result<Tensor> tensorFromProto(const onnx::TensorProto& proto) {
    const std::string label = proto.name().empty() ? std::string("tensor") : "tensor '" + proto.name() + "'";
    if (proto.data_location() == onnx::TensorProto::EXTERNAL)
        return unsupported(label + " stores its data externally; only embedded data can be read here");
    const DataType dtype = dataTypeFromOnnx(proto.data_type());
    if (dataTypeSize(dtype) == 0)
        return unsupported(label + " has data type " + dataTypeName(dtype) + ", which the executor cannot hold");
    Shape shape(proto.dims().begin(), proto.dims().end());
    if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; }))
        return invalidArgument(label + " has a negative dimension " + shapeString(shape));
    QL_ASSIGN_OR_RETURN(auto bytes, tensorBytes(proto));
    Tensor tensor(dtype, std::move(shape));
    std::copy(bytes.begin(), bytes.end(), static_cast<std::byte*>(tensor.rawData()));
    return tensor;
}

onnx::TensorProto tensorToProto(const std::string& name, const Tensor& tensor) {
    onnx::TensorProto proto;
    proto.set_name(name);
    proto.set_data_type(static_cast<int32_t>(tensor.dtype()));
    for (int64_t d : tensor.shape()) proto.add_dims(d);
    proto.set_raw_data(tensor.rawData(), tensor.byteSize());
    return proto;
}

Result<NamedTensor> readTensorProtoFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound("cannot open tensor file '" + path + "'");
    std::ostringstream content;
    content << in.rdbuf();
    onnx::TensorProto proto;
    if (!proto.ParseFromString(content.str()))
        return invalidArgument("'" + path + "' is not a serialized ONNX TensorProto");
    auto tensor = tensorFromProto(proto);
    if (!tensor) return tensor.status().withContext(path);
    return NamedTensor{proto.name(), std::move(tensor).value()};
}

Status writeTensorProtoFile(const std::string& path, const std::string& name, const Tensor& tensor) {
    if (dataTypeSize(tensor.dtype()) == 0)
        return unsupported("cannot write tensor '" + name + "' of type " + dataTypeName(tensor.dtype()));
    return writeFileAtomically(path, tensorToProto(name, tensor).SerializeAsString());
}

}  // namespace ql
