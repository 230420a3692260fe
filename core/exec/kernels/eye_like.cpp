#include "core/exec/kernels/eye_like.h"

#include <cstring>

#include "core/exec/kernels/type_dispatch.h"

namespace ql {

Status EyeLikeKernel::init(const KernelInit& info) {
    if (info.node.attribute("dtype"))
        mDtype = dataTypeFromOnnx(static_cast<int32_t>(info.node.intAttribute("dtype", 1)));
    mK = info.node.intAttribute("k", 0);
    return Status::ok();
}

Status EyeLikeKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    if (in.rank() != 2) return ctx.fail("the input must be 2-D, not " + shapeString(in.shape()));
    const DataType dtype = mDtype == DataType::Undefined ? in.dtype() : mDtype;
    Tensor& out = ctx.allocateOutput(0, dtype, in.shape());
    std::memset(out.rawData(), 0, out.byteSize());
    const int64_t rows = in.dim(0), cols = in.dim(1);
    const bool known = visitNumeric(dtype, [&]<typename T>(T) {
        T* p = out.data<T>();
        for (int64_t r = std::max<int64_t>(0, -mK); r < rows && r + mK < cols; ++r)
            p[r * cols + r + mK] = fromArithmetic<T>(1);
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(dtype) + " is not supported");
    return Status::ok();
}

}  // namespace ql
