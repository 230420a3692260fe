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
    DecodedImage image;
    image.pixels = {stbi_load_from_memory(data, length, &image.width, &image.height, &fileChannels, channels),
                    stbi_image_free};
    if (!image.pixels) return cannotDecode(label);
    image.channels = channels;
    return image;
}

}  // namespace ql
