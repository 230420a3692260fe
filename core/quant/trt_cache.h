#pragma once
// TensorRT calibration cache (the text an IInt8Calibrator writes and reads back, also read by trtexec
// --calib and ONNX Runtime's TensorRT provider). Format (trtexec's readScalesFromCalibrationCache in NVIDIA/TensorRT
// samples/common/sampleEngines.cpp; ONNX Runtime's tensorrt_execution_provider_utils.h):
//   TRT-<version>-<algorithm>            e.g. TRT-8600-EntropyCalibration2
//   <tensor name>: <8 hex digits>        big-endian IEEE-754 float32 bits of scale = amax / 127, lower case
// One line per activation tensor (graph inputs and node outputs); weights are not in a cache, TensorRT
// computes their scales itself. Tensors with amax 0 (or not finite) are left out: TensorRT cannot read a
// zero or negative scale back.
#include <string>

#include "core/common/status.h"
#include "core/quant/calibration.h"

namespace ql {

// TensorRT's version number in the header: major*1000 + minor*100 + patch for 7.x/8.x (8.6.0 -> 8600),
// major*10000 + minor*100 + patch from 10.x (10.3.0 -> 100300).
constexpr int kTrtCacheVersion86 = 8600;
constexpr int kTrtCacheVersion10 = 100300;

// "EntropyCalibration2", "MinMaxCalibration", or "LegacyCalibration" (percentile, mse).
const char* trtCalibrationAlgorithm(CalibrationMethod method);
// The 8 hex digits for a scale: "3c010204" for 1/127.
std::string trtScaleHex(float scale);

std::string trtCacheText(const CalibrationResult& calibration, int trtVersion);
Status saveTrtCache(const CalibrationResult& calibration, int trtVersion, const std::string& path);

}  // namespace ql
