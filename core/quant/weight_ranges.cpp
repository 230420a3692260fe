#include "core/quant/weight_ranges.h"

#include <cmath>
#include <limits>

namespace ql {

std::optional<int64_t> weightChannelAxis(const Node& node, size_t inputIndex, size_t rank) {
    if (inputIndex != 1 || !node.domain.empty() || rank == 0) return std::nullopt;
    if (node.opType == "Conv") return 0;
    if (node.opType == "ConvTranspose") return rank >= 2 ? std::optional<int64_t>(1) : std::nullopt;
    if (node.opType == "Gemm") return node.intAttribute("transB", 0) != 0 ? 0 : 1;
    if (node.opType == "MatMul") return static_cast<int64_t>(rank) - 1;
    return std::nullopt;
}

Result<std::vector<float>> perChannelAmax(const Tensor& weight, int64_t axis) {
    if (axis < 0 || static_cast<size_t>(axis) >= weight.rank()) {
        return invalidArgument("weight of shape " + shapeString(weight.shape()) + " has no axis " +
                               std::to_string(axis) + " to quantize per channel");
    }
    const DataType d = weight.dtype();
    if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double)
        return unsupported(std::string("cannot quantize a ") + dataTypeName(d) + " weight; it must be floating point");
    std::vector<float> copy;  // only for weights not stored as float
    const float* values = weight.dtype() == DataType::Float ? weight.data<float>() : (copy = weight.toFloats()).data();
    const int64_t channels = weight.dim(static_cast<size_t>(axis));
    int64_t inner = 1;
    for (size_t k = static_cast<size_t>(axis) + 1; k < weight.rank(); ++k) inner *= weight.dim(k);
    const int64_t outer = channels == 0 || inner == 0 ? 0 : weight.elementCount() / (channels * inner);
    std::vector<float> amax(static_cast<size_t>(channels), 0.0f);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t c = 0; c < channels; ++c) {
            const float* run = values + (o * channels + c) * inner;
            float m = amax[static_cast<size_t>(c)];
            for (int64_t i = 0; i < inner; ++i) {
                const float a = std::fabs(run[i]);
                m = a > m && a <= std::numeric_limits<float>::max() ? a : m;  // NaN and Inf are skipped
            }
            amax[static_cast<size_t>(c)] = m;
        }
    return amax;
}

}  // namespace ql
