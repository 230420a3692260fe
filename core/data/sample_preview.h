#pragma once
// The first sample of one model input's data as the model will receive it, summarised for a person to check the
// preprocessing: its shape, its channel axis and order, min/max per channel, and an 8-bit RGB picture of it.
// A folder of images is decoded and preprocessed as calibration will, and the picture undoes the normalisation
// (pixel = (value * std + mean) / scale), so a wrong mean or std shows as a wrong picture; an array sample is
// pictured by stretching its own min..max to 0..255.
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/data_limits.h"
#include "core/data/image_loader.h"
#include "core/data/open_data.h"

namespace ql {

struct SamplePreview {
    Shape shape;                             // the sample, without its batch axis
    std::string source;                      // the image file or array the sample comes from
    bool fromImage = false;                  // decoded from an image file (else an array sample as stored)
    ImageLayout layout = ImageLayout::Auto;  // Nchw: channels first; Nhwc: channels last; Auto: not an image
    ChannelOrder order = ChannelOrder::Rgb;  // of the channels as laid out (images: the preprocessing's)
    std::vector<float> minimum, maximum;     // per channel (one entry when the sample has no channel axis)
    int width = 0, height = 0;               // of `rgb`; 0 when the sample is not an image (rank 3, 1 or 3 channels)
    std::vector<uint8_t> rgb;                // width * height * 3 display pixels, RGB, row-major
};

// Reads the first sample of `data` for `input` (a path as openDataSource takes it) and summarises it.
Result<SamplePreview> previewFirstSample(const InputSpec& input, const DataSpec& data, const DataLimits& limits = {});

// The summary of one sample (no batch axis) laid out as `layout` (Auto: told from the shape, a rank-3 sample with
// 1 or 3 channels first or last); `image` given: the sample was preprocessed with it, and the picture undoes its
// normalisation.
SamplePreview previewSample(const Tensor& sample, ImageLayout layout, const ImagePreprocess* image);

}  // namespace ql
