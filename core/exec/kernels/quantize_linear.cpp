#include "core/exec/kernels/quantize_linear.h"

#include <cmath>
#include <limits>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/quantize_math.h"

namespace ql {

namespace {

// Calls f(i, channel) for every element of x, where channel indexes the per-axis parameters (0 when per tensor).
template <typename F>
void forEachChannel(const Tensor& x, int64_t axis, bool perAxis, F&& f) {
    const AxisSplit s = perAxis ? splitAtAxis(x.shape(), axis) : AxisSplit{1, 1, x.elementCount()};
    parallelFor(s.outer * s.axis, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, s.inner)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t j = begin; j < end; ++j) {
                        const size_t c = static_cast<size_t>(j % s.axis);
                        for (int64_t i = j * s.inner; i < (j + 1) * s.inner; ++i) f(i, c);
                    }
                });
}

template <typename Q>
void quantize(const std::vector<float>& x, const std::vector<float>& scale, const std::vector<float>& zero, Tensor& y,
              int64_t axis, bool perAxis) {
    Q* out = y.data<Q>();
    constexpr float lo = std::numeric_limits<Q>::lowest(), hi = std::numeric_limits<Q>::max();
    forEachChannel(y, axis, perAxis, [&](int64_t i, size_t c) {
        out[i] = static_cast<Q>(quantizeLevel(x[static_cast<size_t>(i)], scale[c], zero[c], lo, hi));
    });
}

}  // namespace

Status QuantizeLinearKernel::init(const KernelInit& info) {
    mDequantize = info.node.opType == "DequantizeLinear";
    mAxis = info.node.intAttribute("axis", 1);
    return Status::ok();
}

Status QuantizeLinearKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs x and scale");
    const Tensor& x = ctx.input(0);
    const std::vector<float> scale = ctx.input(1).toFloats();
    const std::vector<float> zero = ctx.hasInput(2) ? ctx.input(2).toFloats() : std::vector<float>(scale.size(), 0.0f);
    const bool perAxis = ctx.input(1).rank() == 1 && scale.size() != 1;
    const auto axis = normalizeAxis(mAxis, static_cast<int64_t>(x.rank()));
    if (perAxis && (!axis || x.dim(static_cast<size_t>(*axis)) != static_cast<int64_t>(scale.size())))
        return ctx.fail("scale has " + std::to_string(scale.size()) + " values, which does not match axis " +
                        std::to_string(mAxis) + " of input shape " + shapeString(x.shape()));
    if (zero.size() != scale.size()) return ctx.fail("zero point and scale have different sizes");
    if (mDequantize) {
        const std::vector<float> values = x.toFloats();
        Tensor& y = ctx.allocateOutput(0, DataType::Float, x.shape());
        float* out = y.data<float>();
        forEachChannel(x, axis.value_or(0), perAxis,
                       [&](int64_t i, size_t c) { out[i] = (values[static_cast<size_t>(i)] - zero[c]) * scale[c]; });
        return Status::ok();
    }
    const DataType qtype = ctx.hasInput(2) ? ctx.input(2).dtype() : DataType::UInt8;
    const std::vector<float> values = x.toFloats();
    Tensor& y = ctx.allocateOutput(0, qtype, x.shape());
    switch (qtype) {
        case DataType::UInt8:
            quantize<uint8_t>(values, scale, zero, y, axis.value_or(0), perAxis);
            break;
        case DataType::Int8:
            quantize<int8_t>(values, scale, zero, y, axis.value_or(0), perAxis);
            break;
        default:
            return ctx.fail(std::string("cannot quantize to ") + dataTypeName(qtype) + "; use UINT8 or INT8");
    }
    return Status::ok();
}

}  // namespace ql
