#pragma once
// What the image tests share: writing a small image whose pixels are a function of (x, y, channel), a model input
// of given dims, and loading an image as one sample.
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <functional>
#include <string>
#include <vector>

#include "core/data/image_loader.h"

namespace ql::test {

// Writes a w x h RGB image (PNG or BMP, by the extension) whose pixel (x, y) channel c is pixel(x, y, c).
inline void writeImage(const std::string& path, int w, int h, const std::function<int(int, int, int)>& pixel) {
    std::vector<unsigned char> rgb(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(static_cast<size_t>(y) * w + x) * 3 + c] = static_cast<unsigned char>(pixel(x, y, c));
    const bool png = path.ends_with(".png");
    const int ok = png ? stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3)
                       : stbi_write_bmp(path.c_str(), w, h, 3, rgb.data());
    ASSERT_NE(ok, 0) << path;
}

inline InputSpec imageInput(std::vector<int64_t> dims) {
    return {"image", DataType::Float, true, std::move(dims)};
}

// The sample `path` becomes for `spec`; an empty tensor (and a test failure) when it cannot be loaded.
inline Tensor loadSample(const std::string& path, const InputSpec& spec, const ImagePreprocess& options) {
    auto geometry = imageGeometry(spec, options);
    EXPECT_TRUE(geometry.isOk()) << geometry.status().message();
    if (!geometry.isOk()) return {};
    auto t = loadImage(path, options, *geometry);
    EXPECT_TRUE(t.isOk()) << t.status().message();
    return t.isOk() ? *t : Tensor();
}

}  // namespace ql::test
