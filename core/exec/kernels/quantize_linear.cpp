#include "core/exec/kernels/quantize_linear.h"

#include <cmath>
#include <limits>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/quantize_math.h"

namespace ql {

namespace {

// Which scale / zero point each element of x uses: the one (per tensor), the one at its index along the axis (per
// axis), or the one of its block of block_size indices along the axis (blocked).
struct ParameterMap {
    bool perTensor = true;
    int64_t inner = 1, length = 1, block = 0, blocks = 1;
    size_t operator()(int64_t i) const {
        if (perTensor) return 0;
        const int64_t coordinate = i / inner % length;
        if (block == 0) return static_cast<size_t>(coordinate);
        return static_cast<size_t>((i / (inner * length) * blocks + coordinate / block) * inner + i % inner);
    }
};

Result<ParameterMap> parameterMap(const KernelContext& ctx, const Tensor& x, const Tensor& scale, int64_t axisValue,
                                  int64_t block) {
    ParameterMap m;
    if (scale.elementCount() == 1 && block == 0) return m;
    const auto axis = normalizeAxis(axisValue, static_cast<int64_t>(x.rank()));
    if (!axis) return ctx.fail("axis " + std::to_string(axisValue) + " is out of range for " + shapeString(x.shape()));
    m.perTensor = false;
    m.length = x.dim(static_cast<size_t>(*axis));
    for (size_t d = static_cast<size_t>(*axis) + 1; d < x.rank(); ++d) m.inner *= x.dim(d);
    Shape expected{m.length};
    if (block > 0) {
        m.block = block;
        m.blocks = (m.length + block - 1) / block;
        expected = x.shape();
        expected[static_cast<size_t>(*axis)] = m.blocks;
    }
    if (scale.shape() != expected)
        return ctx.fail("scale has shape " + shapeString(scale.shape()) + "; " +
                        (block > 0 ? "blocks of " + std::to_string(block) + " need "
                                   : "axis " + std::to_string(axisValue) + " needs ") +
                        shapeString(expected) + " for input " + shapeString(x.shape()));
    return m;
}

template <typename Q>
void quantize(const std::vector<float>& x, const std::vector<float>& scale, const std::vector<float>& zero, Tensor& y,
              const ParameterMap& map) {
    Q* out = y.data<Q>();
    constexpr float lo = std::numeric_limits<Q>::lowest(), hi = std::numeric_limits<Q>::max();
    parallelFor(y.elementCount(), kElementwiseGrain, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const size_t c = map(i);
            out[i] = static_cast<Q>(quantizeLevel(x[static_cast<size_t>(i)], scale[c], zero[c], lo, hi));
        }
    });
}

}  // namespace

Status QuantizeLinearKernel::init(const KernelInit& info) {
    mDequantize = info.node.opType == "DequantizeLinear";
    mAxis = info.node.intAttribute("axis", 1);
    mBlockSize = info.node.intAttribute("block_size", 0);
    if (mBlockSize < 0) return info.fail("block_size must not be negative");
    if (const int64_t t = info.node.intAttribute("output_dtype", 0); t != 0 && !mDequantize)
        mOutputType = dataTypeFromOnnx(static_cast<int32_t>(t));
    return Status::ok();
}

Status QuantizeLinearKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs x and scale");
    const Tensor& x = ctx.input(0);
    const std::vector<float> scale = ctx.input(1).toFloats();
    const std::vector<float> zero = ctx.hasInput(2) ? ctx.input(2).toFloats() : std::vector<float>(scale.size(), 0.0f);
    QL_ASSIGN_OR_RETURN(const ParameterMap map, parameterMap(ctx, x, ctx.input(1), mAxis, mBlockSize));
    if (zero.size() != scale.size()) return ctx.fail("zero point and scale have different sizes");
    const std::vector<float> values = x.toFloats();
    if (mDequantize) {
        Tensor y(DataType::Float, x.shape());
        float* out = y.data<float>();
        parallelFor(x.elementCount(), kElementwiseGrain, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i)
                out[i] = (values[static_cast<size_t>(i)] - zero[map(i)]) * scale[map(i)];
        });
        setOutputAs(ctx, 0, std::move(y), isHalfType(ctx.input(1).dtype()) ? ctx.input(1).dtype() : DataType::Float);
        return Status::ok();
    }
    const DataType qtype =
        ctx.hasInput(2) ? ctx.input(2).dtype() : (mOutputType != DataType::Undefined ? mOutputType : DataType::UInt8);
    Tensor& y = ctx.allocateOutput(0, qtype, x.shape());
    switch (qtype) {
        case DataType::UInt8:
            quantize<uint8_t>(values, scale, zero, y, map);
            break;
        case DataType::Int8:
            quantize<int8_t>(values, scale, zero, y, map);
            break;
        case DataType::UInt16:
            quantize<uint16_t>(values, scale, zero, y, map);
            break;
        case DataType::Int16:
            quantize<int16_t>(values, scale, zero, y, map);
            break;
        default:
            return ctx.fail(std::string("cannot quantize to ") + dataTypeName(qtype) +
                            "; use UINT8, INT8, UINT16 or INT16");
    }
    return Status::ok();
}

}  // namespace ql
