#include "core/data/image_decoder.h"

#include <stb/stb_image.h>

#include <climits>

namespace ql {
namespace {

Status cannotDecode(const std::string& label) {
    const char* reason = stbi_failure_reason();
    return invalidArgument(label + ": cannot decode the image (" + (reason ? reason : "unknown error") +
                           "); expected a PNG, JPEG or BMP file");
}

// Debian 12's stb_image (2.27) converts a 16-bit PGM/PPM to another channel count with its 8-bit routine and then
// reads twice the buffer it made (a heap over-read found by fuzz_image). Such files are refused before stb sees them.
bool isPnm(std::span<const std::byte> bytes) {
    return bytes.size() >= 2 && bytes[0] == std::byte{'P'} &&
           (bytes[1] == std::byte{'5'} || bytes[1] == std::byte{'6'});
}

}  // namespace

Result<DecodedImage> decodeImage(std::span<const std::byte> bytes, int channels, const std::string& label,
                                 const DataLimits& limits) {
    if (bytes.size() > static_cast<size_t>(INT_MAX)) return unsupported(label + ": image files over 2 GB");
    if (bytes.empty()) return invalidArgument(label + ": the image file is empty");
    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int length = static_cast<int>(bytes.size());
    int width = 0, height = 0, fileChannels = 0;
    // The header alone first: stb allocates the whole image before reading a single pixel.
    if (!stbi_info_from_memory(data, length, &width, &height, &fileChannels)) return cannotDecode(label);
    const uint64_t decoded = uint64_t(width) * uint64_t(height) * uint64_t(channels);
    if (decoded > limits.maxDecodedBytes) {
        return invalidArgument(label + ": the image declares " + std::to_string(width) + "x" + std::to_string(height) +
                               " pixels, " + std::to_string(decoded >> 20) + " MB decoded, over the limit of " +
                               std::to_string(limits.maxDecodedBytes >> 20) + " MB (--max-decoded-mb raises it)");
    }
    if (fileChannels != channels && isPnm(bytes) && stbi_is_16_bit_from_memory(data, length)) {
        return unsupported(label + ": a 16-bit " + (fileChannels == 1 ? "PGM" : "PPM") + " image with " +
                           std::to_string(fileChannels) + " channel(s) where the model takes " +
                           std::to_string(channels) + "; convert it to 8 bits per channel or to PNG");
    }
    DecodedImage image;
    image.pixels = {stbi_load_from_memory(data, length, &image.width, &image.height, &fileChannels, channels),
                    stbi_image_free};
    if (!image.pixels) return cannotDecode(label);
    image.channels = channels;
    return image;
}

}  // namespace ql
