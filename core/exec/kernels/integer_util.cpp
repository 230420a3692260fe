#include "core/exec/kernels/integer_util.h"

#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>

namespace ql {

Status checkEightBit(const KernelContext& ctx, size_t input, const std::string& name) {
    if (!ctx.hasInput(input)) return ctx.fail("needs input " + name);
    const DataType t = ctx.input(input).dtype();
    if (t == DataType::Int8 || t == DataType::UInt8) return Status::ok();
    return ctx.fail(name + " is " + dataTypeName(t) + "; it must be INT8 or UINT8");
}

Result<std::vector<int32_t>> readZeroPoints(const KernelContext& ctx, size_t input, size_t count,
                                            const std::string& name) {
    if (!ctx.hasInput(input)) return std::vector<int32_t>(count, 0);
    const Tensor& t = ctx.input(input);
    if (t.dtype() != DataType::Int8 && t.dtype() != DataType::UInt8)
        return ctx.fail(name + " is " + dataTypeName(t.dtype()) + "; it must be INT8 or UINT8");
    std::vector<int32_t> values;
    for (float v : t.toFloats()) values.push_back(static_cast<int32_t>(v));
    if (values.size() == 1) return std::vector<int32_t>(count, values[0]);
    if (values.size() != count)
        return ctx.fail(name + " has " + std::to_string(values.size()) + " values; it must have 1 or " +
                        std::to_string(count));
    return values;
}

Result<std::vector<float>> readScales(const KernelContext& ctx, size_t input, size_t count, const std::string& name) {
    if (!ctx.hasInput(input)) return ctx.fail("needs input " + name);
    std::vector<float> values = ctx.input(input).toFloats();
    if (values.size() == 1) return std::vector<float>(count, values[0]);
    if (values.size() != count)
        return ctx.fail(name + " has " + std::to_string(values.size()) + " values; it must have 1 or " +
                        std::to_string(count));
    return values;
}

std::vector<float> eightBitValues(const Tensor& t) {
    std::vector<float> out(static_cast<size_t>(t.elementCount()));
    if (t.dtype() == DataType::Int8)
        std::copy(t.data<int8_t>(), t.data<int8_t>() + t.elementCount(), out.begin());
    else
        std::copy(t.data<uint8_t>(), t.data<uint8_t>() + t.elementCount(), out.begin());
    return out;
}

void exactGemm(const float* a, const float* b, int32_t* c, int64_t m, int64_t n, int64_t k) {
    constexpr int64_t kExactSlice = 256;  // 256 * 255 * 255 < 2^24
    std::vector<int64_t> total(static_cast<size_t>(m * n), 0);
    std::vector<float> part(static_cast<size_t>(m * n));
    for (int64_t k0 = 0; k0 < k; k0 += kExactSlice) {
        const int64_t width = std::min(kExactSlice, k - k0);
        // oneDNN's sgemm picks the CPU's widest vectors at run time (Eigen here is built for the baseline ISA).
        dnnl_sgemm('N', 'N', m, n, width, 1.0f, a + k0, k, b + k0 * n, n, 0.0f, part.data(), n);
        for (size_t i = 0; i < part.size(); ++i) total[i] += static_cast<int64_t>(part[i]);
    }
    for (int64_t i = 0; i < m * n; ++i)
        c[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(total[static_cast<size_t>(i)])));
}

int32_t Requantizer::level(int32_t acc, float multiplier) const {
    const float scaled = static_cast<float>(acc) * multiplier;
    const float lower = static_cast<float>(lo() - zero), upper = static_cast<float>(hi() - zero);
    return static_cast<int32_t>(std::nearbyint(std::clamp(scaled, lower, upper))) + zero;
}

}  // namespace ql

namespace ql {

void Requantizer::apply(const Tensor& acc, std::span<const float> multipliers, int64_t inner, Tensor& y) const {
    const auto channels = static_cast<int64_t>(multipliers.size());
    const int32_t* in = acc.data<int32_t>();
    for (int64_t i = 0; i < acc.elementCount(); ++i) {
        const int32_t v = level(in[i], multipliers[static_cast<size_t>(i / inner % channels)]);
        if (type == DataType::Int8)
            y.data<int8_t>()[i] = static_cast<int8_t>(v);
        else
            y.data<uint8_t>()[i] = static_cast<uint8_t>(v);
    }
}

}  // namespace ql

namespace ql {

int32_t Quantization::quantize(float v) const {
    const float lo = type == DataType::Int8 ? -128.0f : 0.0f, hi = type == DataType::Int8 ? 127.0f : 255.0f;
    return static_cast<int32_t>(std::clamp(std::nearbyint(v / scale) + static_cast<float>(zero), lo, hi));
}

Result<Quantization> readQuantization(const KernelContext& ctx, size_t scaleInput, size_t zeroInput, DataType type,
                                      const std::string& name) {
    QL_ASSIGN_OR_RETURN(const std::vector<float> scale, readScales(ctx, scaleInput, 1, name + "_scale"));
    QL_ASSIGN_OR_RETURN(const std::vector<int32_t> zero, readZeroPoints(ctx, zeroInput, 1, name + "_zero_point"));
    if (scale.size() != 1) return ctx.fail(name + "_scale must be one value (per tensor)");
    const DataType zeroType = ctx.hasInput(zeroInput) ? ctx.input(zeroInput).dtype() : type;
    return Quantization{scale[0], zero[0], zeroType};
}

int32_t eightBitAt(const Tensor& t, int64_t i) {
    return t.dtype() == DataType::Int8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

void setEightBit(Tensor& t, int64_t i, int32_t v) {
    if (t.dtype() == DataType::Int8)
        t.data<int8_t>()[i] = static_cast<int8_t>(v);
    else
        t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
}

}  // namespace ql
