#include "core/exec/kernels/non_zero.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

Status NonZeroKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    std::vector<int64_t> hits;
    const bool known = visitNumeric(in.dtype(), [&]<typename T>(T) {
        const T* p = in.data<T>();
        using A = typename ArithmeticOf<T>::type;
        for (int64_t i = 0; i < in.elementCount(); ++i)
            if (toArithmetic(p[i]) != A{}) hits.push_back(i);
    });
    if (!known) return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported");
    // A scalar counts as rank 1 with one coordinate (as ONNX Runtime does).
    const auto rows = std::max<int64_t>(1, static_cast<int64_t>(in.rank()));
    const auto count = static_cast<int64_t>(hits.size());
    Tensor& out = ctx.allocateOutput(0, DataType::Int64, {rows, count});
    int64_t* o = out.data<int64_t>();
    const Strides strides = contiguousStrides(in.shape());
    for (int64_t h = 0; h < count; ++h) {
        int64_t rest = hits[static_cast<size_t>(h)];
        for (size_t d = 0; d < in.rank(); ++d) {
            o[static_cast<int64_t>(d) * count + h] = rest / strides[d];
            rest %= strides[d];
        }
        if (in.rank() == 0) o[h] = 0;
    }
    return Status::ok();
}

}  // namespace ql
