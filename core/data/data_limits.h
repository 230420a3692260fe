#pragma once
// How much memory reading one piece of calibration data may take. Data comes from other people and tools: a small
// file can declare a huge array (a zip bomb in an .npz, a PNG header saying 65535x65535), and reading it whole would
// end in an OOM kill instead of an error naming the file. docs/limits.md lists every limit.
#include <cstdint>

namespace ql {

// 1 GiB: ~1,400 224x224 RGB float32 images in one .npz member (calibration uses 500-1,000), or an 18,000x18,000
// RGB image. Larger sets read better as .npy files, which are memory-mapped and read batch by batch (no limit
// applies to them). stb_image refuses PNGs and JPEGs over 1 GiB itself, but allocates BMPs up to 2 GiB.
inline constexpr uint64_t kDefaultMaxDecodedBytes = uint64_t{1} << 30;

struct DataLimits {
    // Bytes one array may take once decoded: an .npz member inflated, an image decoded (width x height x channels).
    // The CLI's --max-decoded-mb raises it.
    uint64_t maxDecodedBytes = kDefaultMaxDecodedBytes;
};

}  // namespace ql
