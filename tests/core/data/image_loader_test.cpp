#include "core/data/image_loader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/data/image_decoder.h"
#include "core/data/open_data.h"
#include "tests/core/data/image_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::imageInput;
using test::loadSample;
using test::TempDir;
using test::writeImage;

TEST(ImageLoader, ExactResizeIsBilinearWithHalfPixelCentres) {
    TempDir dir;
    writeImage(dir.file("a.png"), 2, 1, [](int x, int, int) { return x * 100; });
    ImagePreprocess options;
    options.resize = ResizeMode::Exact;
    options.scale = 1.0f;
    Tensor t = loadSample(dir.file("a.png"), imageInput({1, 3, 1, 4}), options);
    ASSERT_EQ(t.shape(), (Shape{3, 1, 4}));
    // Source x for output i: (i + 0.5) / 2 - 0.5 = -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
    const std::vector<float> expected = {0, 25, 75, 100};
    for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(t.data<float>()[i], expected[i]);
}

TEST(ImageLoader, ShorterSideResizeThenCenterCrop) {
    TempDir dir;
    writeImage(dir.file("a.bmp"), 8, 4, [](int x, int y, int) { return x * 10 + y; });
    ImagePreprocess options;
    options.shorterSide = 4;  // no scaling: the crop alone picks x 3..4, y 1..2
    options.scale = 1.0f;
    Tensor t = loadSample(dir.file("a.bmp"), imageInput({1, 3, 2, 2}), options);
    ASSERT_EQ(t.shape(), (Shape{3, 2, 2}));
    const std::vector<float> expected = {31, 41, 32, 42};
    for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(t.data<float>()[i], expected[i]);
}

TEST(ImageLoader, DefaultShorterSideIsTheImageNetRatio) {
    auto g = imageGeometry(imageInput({1, 3, 224, 224}), {});
    ASSERT_TRUE(g.isOk());
    EXPECT_EQ(g->shorterSide, 256);
}

TEST(ImageLoader, ScaleMeanStdAndBgrOrder) {
    TempDir dir;
    writeImage(dir.file("a.png"), 3, 3, [](int, int, int c) { return c == 0 ? 255 : (c == 1 ? 51 : 0); });
    ImagePreprocess options;
    options.resize = ResizeMode::Exact;
    options.order = ChannelOrder::Bgr;
    options.mean = {0.5f, 0.2f, 0.0f};
    options.stddev = {0.5f, 0.1f, 2.0f};
    Tensor t = loadSample(dir.file("a.png"), imageInput({1, 3, 2, 2}), options);
    ASSERT_EQ(t.shape(), (Shape{3, 2, 2}));
    EXPECT_FLOAT_EQ(t.data<float>()[0], (0.0f - 0.5f) / 0.5f);              // blue first
    EXPECT_NEAR(t.data<float>()[4], (51.0f / 255.0f - 0.2f) / 0.1f, 1e-5);  // green
    EXPECT_FLOAT_EQ(t.data<float>()[8], (1.0f - 0.0f) / 2.0f);              // red last
}

TEST(ImageLoader, NhwcLayoutIsDetectedFromTheModel) {
    TempDir dir;
    writeImage(dir.file("a.png"), 2, 2, [](int, int, int c) { return c * 100; });
    ImagePreprocess options;
    options.resize = ResizeMode::Exact;
    options.scale = 1.0f;
    Tensor t = loadSample(dir.file("a.png"), imageInput({1, 2, 2, 3}), options);
    ASSERT_EQ(t.shape(), (Shape{2, 2, 3}));
    EXPECT_FLOAT_EQ(t.data<float>()[0], 0.0f);
    EXPECT_FLOAT_EQ(t.data<float>()[1], 100.0f);
    EXPECT_FLOAT_EQ(t.data<float>()[2], 200.0f);
}

TEST(ImageLoader, OneChannelModelGetsGrayscale) {
    TempDir dir;
    writeImage(dir.file("a.png"), 2, 2, [](int, int, int c) { return c == 0 ? 255 : 0; });
    ImagePreprocess options;
    options.resize = ResizeMode::Exact;
    options.scale = 1.0f;
    Tensor t = loadSample(dir.file("a.png"), imageInput({1, 1, 2, 2}), options);
    ASSERT_EQ(t.shape(), (Shape{1, 2, 2}));
    EXPECT_FLOAT_EQ(t.data<float>()[0], 76.0f);  // stb's luma: (77 r + 150 g + 29 b) >> 8
}

TEST(ImageLoader, CorruptImageNamesTheFile) {
    TempDir dir;
    test::writeFile(dir.file("bad.png"), "\x89PNG\r\n\x1a\n this is not really a png");
    auto g = imageGeometry(imageInput({1, 3, 2, 2}), {});
    ASSERT_TRUE(g.isOk());
    auto t = loadImage(dir.file("bad.png"), {}, *g);
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.status().message().find("bad.png"), std::string::npos) << t.status().message();
    EXPECT_NE(t.status().message().find("cannot decode"), std::string::npos) << t.status().message();
}

// Found by fuzz_image: Debian's stb_image converts a 16-bit PPM/PGM to another channel count with its 8-bit
// routine and reads past its buffer. Such a file is refused before stb decodes it; the same file at its own channel
// count still decodes.
TEST(ImageLoader, SixteenBitPnmOfAnotherChannelCountIsRefusedNotDecoded) {
    std::string ppm = "P6 2 1 65535\n";
    ppm += std::string(2 * 3 * 2, '\x40');
    const auto bytes = std::as_bytes(std::span(ppm.data(), ppm.size()));
    auto gray = decodeImage(bytes, 1, "deep.ppm", DataLimits{});
    ASSERT_FALSE(gray.isOk());
    EXPECT_NE(gray.status().message().find("deep.ppm: a 16-bit PPM image with 3 channel(s)"), std::string::npos)
        << gray.status().message();
    auto rgb = decodeImage(bytes, 3, "deep.ppm", DataLimits{});
    ASSERT_TRUE(rgb.isOk()) << rgb.status().message();
    EXPECT_EQ(rgb->width, 2);
    EXPECT_EQ(rgb->pixels.get()[0], 0x40);
}

TEST(ImageLoader, RefusesAnImageLargerThanTheLimitFromItsHeader) {
    TempDir dir;
    writeImage(dir.file("a.bmp"), 64, 32, [](int, int, int) { return 0; });
    auto g = imageGeometry(imageInput({1, 3, 2, 2}), {});
    ASSERT_TRUE(g.isOk());
    auto t = loadImage(dir.file("a.bmp"), {}, *g, DataLimits{.maxDecodedBytes = 64 * 32 * 3 - 1});
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.status().message().find("a.bmp: the image declares 64x32 pixels"), std::string::npos)
        << t.status().message();
    EXPECT_TRUE(loadImage(dir.file("a.bmp"), {}, *g, DataLimits{.maxDecodedBytes = 64 * 32 * 3}).isOk());
}

TEST(ImageLoader, EmptyFileIsAnErrorNamingIt) {
    TempDir dir;
    test::writeFile(dir.file("empty.png"), "");
    auto g = imageGeometry(imageInput({1, 3, 2, 2}), {});
    ASSERT_TRUE(g.isOk());
    auto t = loadImage(dir.file("empty.png"), {}, *g);
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.status().message().find("empty.png: the image file is empty"), std::string::npos)
        << t.status().message();
}

TEST(ImageLoader, GeometryErrorsNameTheInput) {
    EXPECT_FALSE(imageGeometry(imageInput({1, 3, -1, -1}), {}).isOk());  // unknown size, none given
    ImagePreprocess sized;
    sized.width = 32;
    sized.height = 16;
    auto g = imageGeometry(imageInput({1, 3, -1, -1}), sized);
    ASSERT_TRUE(g.isOk()) << g.status().message();
    EXPECT_EQ(g->width, 32);
    EXPECT_EQ(g->height, 16);
    auto clash = imageGeometry(imageInput({1, 3, 8, 8}), sized);
    ASSERT_FALSE(clash.isOk());
    EXPECT_NE(clash.status().message().find("'image'"), std::string::npos);
    EXPECT_FALSE(imageGeometry(imageInput({1, 5, 8, 7}), {}).isOk());  // neither NCHW nor NHWC
    EXPECT_FALSE(imageGeometry({"ids", DataType::Int64, true, {1, 3, 8, 8}}, {}).isOk());
    EXPECT_FALSE(imageGeometry(imageInput({1, 64}), {}).isOk());
    ImagePreprocess tooSmall;
    tooSmall.shorterSide = 4;
    EXPECT_FALSE(imageGeometry(imageInput({1, 3, 8, 8}), tooSmall).isOk());
}

TEST(ImageLoader, ImageFolderBecomesBatches) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("imgs"));
    writeImage(dir.file("imgs/2.bmp"), 6, 6, [](int, int, int) { return 200; });
    writeImage(dir.file("imgs/1.PNG"), 5, 7, [](int, int, int) { return 100; });
    ImagePreprocess options;
    options.scale = 1.0f;
    auto source = openDataSource({imageInput({-1, 3, 4, 4})}, {{"", dir.file("imgs"), options}});
    ASSERT_TRUE(source.isOk()) << source.status().message();
    EXPECT_EQ((*source)->sampleCount(), 2);
    auto batch = (*source)->read(0, 2);
    ASSERT_TRUE(batch.isOk()) << batch.status().message();
    const Tensor& t = (*batch)[0].second;
    EXPECT_EQ(t.shape(), (Shape{2, 3, 4, 4}));
    EXPECT_FLOAT_EQ(t.data<float>()[0], 100.0f);
    EXPECT_FLOAT_EQ(t.data<float>()[48], 200.0f);
}

}  // namespace
}  // namespace ql
