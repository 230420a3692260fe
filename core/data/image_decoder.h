#pragma once
// Image files (PNG, JPEG, BMP, and whatever else stb_image recognises) decoded to 8-bit pixels, after the header's
// size is checked against DataLimits so a 65535x65535 header is an error, not an allocation of 12 GB.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "core/common/status.h"
#include "core/data/data_limits.h"

namespace ql {

struct DecodedImage {
    int width = 0, height = 0, channels = 0;                                   // channels as requested
    std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, nullptr};  // row-major, interleaved
};

// Decodes `bytes` as 1 (grayscale) or 3 (RGB) channels; `label` names the file in errors.
Result<DecodedImage> decodeImage(std::span<const std::byte> bytes, int channels, const std::string& label,
                                 const DataLimits& limits = {});

}  // namespace ql
