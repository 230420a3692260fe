#include "core/exec/kernels/constant.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

#include "core/exec/kernels/copy_util.h"
#include "core/model/tensor_data.h"

namespace ql {

namespace {

Result<Tensor> tensorFromProto(const KernelInit& info, const onnx::TensorProto& proto) {
    const DataType dtype = dataTypeFromOnnx(proto.data_type());
    if (dataTypeSize(dtype) == 0)
        return info.fail(std::string("a constant of type ") + dataTypeName(dtype) +
                         " is not supported by the executor");
    auto bytes = tensorBytes(proto);
    if (!bytes) return info.fail(bytes.status().message());
    Tensor t(dtype, Shape(proto.dims().begin(), proto.dims().end()));
    if (bytes->size() != t.byteSize())
        return info.fail("the value holds " + std::to_string(bytes->size()) + " bytes, but its shape " +
                         shapeString(t.shape()) + " needs " + std::to_string(t.byteSize()));
    std::copy(bytes->begin(), bytes->end(), bytesOf(t));
    return t;
}

}  // namespace

Status ConstantKernel::init(const KernelInit& info) {
    if (info.node.attribute("sparse_value"))
        return info.fail("sparse_value constants are not supported; convert the model to a dense constant");
    auto proto = constantNodeTensor(*info.node.proto);
    if (!proto) return info.fail(proto.status().message());
    QL_ASSIGN_OR_RETURN(mValue, tensorFromProto(info, *proto));
    return Status::ok();
}

Status ConstantKernel::compute(KernelContext& ctx) {
    ctx.setOutput(0, mValue);
    return Status::ok();
}

Status ConstantOfShapeKernel::init(const KernelInit& info) {
    if (const onnx::AttributeProto* value = info.node.attribute("value")) {
        QL_ASSIGN_OR_RETURN(mValue, tensorFromProto(info, value->t()));
        if (mValue.elementCount() != 1) return info.fail("the value attribute must hold exactly one element");
    } else {
        mValue = Tensor::zeros(DataType::Float, {1});
    }
    return Status::ok();
}

Status ConstantOfShapeKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(Shape shape, readInt64Input(ctx, 0));
    if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; }))
        return ctx.fail("shape " + shapeString(shape) + " has a negative dimension");
    Tensor& out = ctx.allocateOutput(0, mValue.dtype(), shape);
    fillElements(out, mValue.rawData());
    return Status::ok();
}

}  // namespace ql
