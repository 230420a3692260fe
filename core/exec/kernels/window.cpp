#include "core/exec/kernels/window.h"

#include <cmath>
#include <numbers>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

double windowValue(WindowKernel::Kind kind, double n, double period) {
    const double angle = 2.0 * std::numbers::pi * n / period;
    switch (kind) {
        case WindowKernel::Kind::Hann: {
            const double s = std::sin(std::numbers::pi * n / period);
            return s * s;
        }
        case WindowKernel::Kind::Hamming:
            return 25.0 / 46.0 - std::cos(angle) * (1.0 - 25.0 / 46.0);
        case WindowKernel::Kind::Blackman:
            return 0.42 - std::cos(angle) * 0.5 + std::cos(2.0 * angle) * 0.08;
    }
    return 0.0;
}

}  // namespace

Status WindowKernel::init(const KernelInit& info) {
    const std::string& op = info.node.opType;
    mKind = op == "HannWindow" ? Kind::Hann : op == "HammingWindow" ? Kind::Hamming : Kind::Blackman;
    mPeriodic = info.node.intAttribute("periodic", 1) != 0;
    mType = dataTypeFromOnnx(static_cast<int32_t>(info.node.intAttribute("output_datatype", 1)));
    if (mType == DataType::Undefined || mType == DataType::String || mType == DataType::Bool)
        return info.fail("output_datatype must be a numeric type");
    return Status::ok();
}

Status WindowKernel::compute(KernelContext& ctx) {
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> size, readInt64Input(ctx, 0));
    if (size.size() != 1 || size[0] < 0) return ctx.fail("size must be one non-negative integer");
    const int64_t n = size[0];
    const double period = static_cast<double>(mPeriodic ? n : n - 1);
    Tensor& y = ctx.allocateOutput(0, mType, {n});
    visitNumeric(mType, [&]<typename T>(T) {
        using A = typename ArithmeticOf<T>::type;
        for (int64_t i = 0; i < n; ++i)
            y.data<T>()[i] = fromArithmetic<T>(static_cast<A>(windowValue(mKind, static_cast<double>(i), period)));
    });
    return Status::ok();
}

}  // namespace ql
