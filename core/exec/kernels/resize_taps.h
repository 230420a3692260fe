#pragma once
// The 1-D sampling plan of Resize / Upsample along one axis: for every output coordinate, the input
// coordinates it reads and their weights, following the ONNX reference (coordinate_transformation_mode,
// nearest_mode, linear and cubic coefficients with edge clamping or exclude_outside).
#include <cstdint>
#include <vector>

namespace ql {

enum class ResizeMode { Nearest, Linear, Cubic };
enum class CoordinateMode {
    HalfPixel,
    PytorchHalfPixel,
    AlignCorners,
    Asymmetric,
    TfHalfPixelForNearest,
    TfCropAndResize,
    HalfPixelSymmetric  // opset 19
};
// Simple: floor when upsampling, ceil when downsampling (Upsample and Resize-10, as ONNX Runtime).
enum class NearestMode { RoundPreferFloor, RoundPreferCeil, Floor, Ceil, Simple };

struct ResizeOptions {
    ResizeMode mode = ResizeMode::Nearest;
    CoordinateMode coordinates = CoordinateMode::HalfPixel;
    NearestMode nearest = NearestMode::RoundPreferFloor;
    float cubicA = -0.75f;
    bool excludeOutside = false;
};

struct ResizeTap {
    int64_t index;
    float weight;
};

struct AxisTaps {
    int64_t tapsPerOutput = 1;
    std::vector<ResizeTap> taps;  // tapsPerOutput per output coordinate
    std::vector<bool> outside;    // per output coordinate: tf_crop_and_resize extrapolates here
    bool identity = false;        // output coordinate o reads exactly input o
};

// roiStart / roiEnd are the normalised crop of tf_crop_and_resize (ignored by other modes).
AxisTaps resizeTaps(const ResizeOptions& options, int64_t inSize, int64_t outSize, float scale, float roiStart,
                    float roiEnd);

}  // namespace ql
