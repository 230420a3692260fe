// Image decoding through stb_image as the data loader does it (core/data/image_decoder.h): PNG, JPEG, BMP, PGM and
// every other format stb recognises, as grayscale or RGB, with a small decode limit.
#include "core/data/image_decoder.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const int channels = size > 0 && (data[size - 1] & 1) ? 1 : 3;
    (void)ql::decodeImage(ql::fuzz::bytesOf(data, size), channels, "fuzz.img",
                          ql::DataLimits{.maxDecodedBytes = 64 << 20});
    return 0;
}
