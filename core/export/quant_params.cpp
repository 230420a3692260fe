#include "core/export/quant_params.h"

#include <algorithm>
#include <cmath>

#include "core/export/qdq_import.h"
#include "core/model/tensor_data.h"

namespace ql {

bool QuantizationParams::symmetric() const {
    return qmin < 0 && std::all_of(zeroPoints.begin(), zeroPoints.end(), [](float z) { return z == 0.0f; });
}

Result<QuantizationParams> readQuantParams(const onnx::TensorProto& scale, const onnx::TensorProto* zero, int64_t axis,
                                           const std::string& where) {
    QuantizationParams q;
    q.axis = axis;
    QL_ASSIGN_OR_RETURN(q.scales, tensorAsFloats(scale));
    if (q.scales.empty()) return invalidModel(where + ": the scale is empty");
    q.zeroPoints.assign(q.scales.size(), 0.0f);
    if (!zero) {
        q.qmin = 0.0f, q.qmax = 255.0f;  // ONNX: no zero point means uint8
        return q;
    }
    QL_ASSIGN_OR_RETURN(q.zeroPoints, tensorAsFloats(*zero));
    if (q.zeroPoints.size() == 1 && q.scales.size() > 1) q.zeroPoints.assign(q.scales.size(), q.zeroPoints[0]);
    if (q.zeroPoints.size() != q.scales.size()) return invalidModel(where + ": scale and zero point sizes differ");
    if (zero->data_type() == onnx::TensorProto::UINT8) q.qmin = 0.0f, q.qmax = 255.0f;
    return q;
}

float rangeAmax(const QuantizationParams& q, size_t channel, float* min, float* max) {
    const float scale = q.scales[channel], zero = q.zeroPoints[channel];
    const float lo = (q.qmin - zero) * scale, hi = (q.qmax - zero) * scale;
    const float amax = q.symmetric() ? amaxForScale(scale) : std::max(std::fabs(lo), std::fabs(hi));
    if (min) *min = q.symmetric() ? -amax : lo;
    if (max) *max = q.symmetric() ? amax : hi;
    return amax;
}

Result<std::vector<float>> dequantizeTensor(const onnx::TensorProto& quantized, const QuantizationParams& q,
                                            bool keepScale, const std::string& where) {
    if (quantized.data_type() != onnx::TensorProto::INT8 && quantized.data_type() != onnx::TensorProto::UINT8)
        return invalidModel(where + ": the quantized initializer '" + quantized.name() + "' is not INT8 or UINT8");
    QL_ASSIGN_OR_RETURN(auto levels, tensorAsFloats(quantized));
    const std::vector<int64_t> dims(quantized.dims().begin(), quantized.dims().end());
    int64_t channels = 1, inner = 1;
    if (q.scales.size() > 1) {
        const int64_t rank = static_cast<int64_t>(dims.size());
        const int64_t axis = q.axis < 0 ? q.axis + rank : q.axis;
        if (axis < 0 || axis >= rank || dims[static_cast<size_t>(axis)] != static_cast<int64_t>(q.scales.size()))
            return invalidModel(where + ": the scale count does not match the weight's dimension on axis " +
                                std::to_string(q.axis));
        channels = dims[static_cast<size_t>(axis)];
        for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
    }
    std::vector<float> values(levels.size());
    for (size_t i = 0; i < levels.size(); ++i) {
        const size_t c = static_cast<size_t>((static_cast<int64_t>(i) / inner) % channels);
        const float level = levels[i] - q.zeroPoints[c];
        values[i] = keepScale && q.symmetric() && std::fabs(level) == 127.0f ? std::copysign(rangeAmax(q, c), level)
                                                                             : level * q.scales[c];
    }
    return values;
}

}  // namespace ql
