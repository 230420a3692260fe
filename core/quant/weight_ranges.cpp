#include "core/quant/weight_ranges.h"

#include <cmath>

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
    const std::vector<float> values = weight.toFloats();
    const int64_t channels = weight.dim(static_cast<size_t>(axis));
    int64_t inner = 1;
    for (size_t k = static_cast<size_t>(axis) + 1; k < weight.rank(); ++k) inner *= weight.dim(k);
    std::vector<float> amax(static_cast<size_t>(channels), 0.0f);
    for (size_t i = 0; i < values.size(); ++i) {
        const auto channel = static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
        if (std::isfinite(values[i])) amax[channel] = std::max(amax[channel], std::fabs(values[i]));
    }
    return amax;
}

}  // namespace ql
