#include "core/quant/trt_cache.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "core/common/atomic_file.h"

namespace ql {

const char* trtCalibrationAlgorithm(CalibrationMethod method) {
    switch (method) {
        case CalibrationMethod::Entropy:
            return "EntropyCalibration2";
        case CalibrationMethod::MinMax:
            return "MinMaxCalibration";
        case CalibrationMethod::Percentile:
        case CalibrationMethod::Mse:
        case CalibrationMethod::Auto:
            break;
    }
    return "LegacyCalibration";
}

std::string trtScaleHex(float scale) {
    char text[9];
    std::snprintf(text, sizeof(text), "%08x", static_cast<unsigned>(std::bit_cast<uint32_t>(scale)));
    return text;
}

std::string trtCacheText(const CalibrationResult& calibration, int trtVersion) {
    std::string text =
        "TRT-" + std::to_string(trtVersion) + "-" + trtCalibrationAlgorithm(calibration.config.method) + "\n";
    for (const TensorRange& range : calibration.activations) {
        const float scale = range.amax / 127.0f;
        if (!std::isfinite(scale) || scale <= 0.0f) continue;
        text += range.name + ": " + trtScaleHex(scale) + "\n";
    }
    return text;
}

Status saveTrtCache(const CalibrationResult& calibration, int trtVersion, const std::string& path) {
    return writeFileAtomically(path, trtCacheText(calibration, trtVersion));
}

}  // namespace ql
