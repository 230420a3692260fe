// Issue 29, item 4: the resize modes (center crop, stretch, letterbox with a pad value), a mean/std of one value
// or one per channel with a clear message for any other count, and the settings a model suggests by itself.
#include <gtest/gtest.h>

#include "core/data/image_loader.h"
#include "tests/core/data/image_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::imageInput;
using test::loadSample;
using test::TempDir;
using test::writeImage;

// Plane 0 of an NCHW sample, row by row.
std::vector<float> firstPlane(const Tensor& t) {
    const auto h = static_cast<size_t>(t.shape()[1]), w = static_cast<size_t>(t.shape()[2]);
    return {t.data<float>(), t.data<float>() + h * w};
}

ImagePreprocess raw(ResizeMode mode) {
    ImagePreprocess options;
    options.resize = mode;
    options.scale = 1.0f;
    options.padValue = 7.0f;
    return options;
}

TEST(ImageResize, LetterboxKeepsTheAspectAndPadsTopAndBottomAlike) {
    TempDir dir;
    writeImage(dir.file("wide.png"), 8, 4, [](int x, int y, int) { return x * 10 + y; });
    const Tensor t = loadSample(dir.file("wide.png"), imageInput({1, 3, 4, 4}), raw(ResizeMode::Letterbox));
    ASSERT_EQ(t.shape(), (Shape{3, 4, 4}));
    // 8x4 scaled by 1/2 to 4x2, one row of padding above and below. Source x = (i + 0.5) * 2 - 0.5 = 0.5, 2.5, ...
    // and y = 0.5 (row 1), 2.5 (row 2): the mean of two neighbours.
    const std::vector<float> expected = {7,   7,    7,    7,     //
                                         5.5, 25.5, 45.5, 65.5,  //
                                         7.5, 27.5, 47.5, 67.5,  //
                                         7,   7,    7,    7};
    const std::vector<float> plane = firstPlane(t);
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(plane[i], expected[i]) << "pixel " << i;
}

TEST(ImageResize, LetterboxPadsLeftAndRightOfATallImage) {
    TempDir dir;
    writeImage(dir.file("tall.png"), 2, 4, [](int x, int y, int) { return 100 + x * 10 + y; });
    const Tensor t = loadSample(dir.file("tall.png"), imageInput({1, 3, 4, 4}), raw(ResizeMode::Letterbox));
    const std::vector<float> plane = firstPlane(t);
    for (int y = 0; y < 4; ++y) {
        EXPECT_FLOAT_EQ(plane[y * 4 + 0], 7.0f);
        EXPECT_FLOAT_EQ(plane[y * 4 + 1], 100.0f + y);  // no scaling: the image itself, centred
        EXPECT_FLOAT_EQ(plane[y * 4 + 2], 110.0f + y);
        EXPECT_FLOAT_EQ(plane[y * 4 + 3], 7.0f);
    }
}

TEST(ImageResize, LetterboxOddPaddingPutsTheExtraRowAtTheBottom) {
    TempDir dir;
    writeImage(dir.file("a.png"), 4, 3, [](int, int, int) { return 50; });
    const Tensor t = loadSample(dir.file("a.png"), imageInput({1, 3, 4, 4}), raw(ResizeMode::Letterbox));
    const std::vector<float> plane = firstPlane(t);
    EXPECT_FLOAT_EQ(plane[0], 50.0f);  // row 0: image (padding (4 - 3) / 2 = 0 rows above)
    EXPECT_FLOAT_EQ(plane[12], 7.0f);  // row 3: the one row of padding
}

TEST(ImageResize, LetterboxPadValueIsNormalisedLikeAPixel) {
    TempDir dir;
    writeImage(dir.file("wide.png"), 4, 2, [](int, int, int) { return 0; });
    ImagePreprocess options;
    options.resize = ResizeMode::Letterbox;
    options.padValue = 114.0f;
    options.mean = {0.5f};
    options.stddev = {0.25f};
    const Tensor t = loadSample(dir.file("wide.png"), imageInput({1, 3, 4, 4}), options);
    EXPECT_NEAR(firstPlane(t)[0], (114.0f / 255.0f - 0.5f) / 0.25f, 1e-5);  // 114 x (1 / 255): rounded apart
    EXPECT_FLOAT_EQ(firstPlane(t)[4], (0.0f - 0.5f) / 0.25f);
}

TEST(ImageResize, CenterCropScalesTheShorterSideThenCropsTheMiddle) {
    TempDir dir;
    writeImage(dir.file("a.png"), 8, 4, [](int x, int y, int) { return x * 10 + y; });
    ImagePreprocess options = raw(ResizeMode::ShorterSideThenCenterCrop);
    options.shorterSide = 2;  // 8x4 -> 4x2, then the middle 2x2 (resized x 1..2)
    const Tensor t = loadSample(dir.file("a.png"), imageInput({1, 3, 2, 2}), options);
    // Resized x 1, 2 come from source x 2.5, 4.5; resized y 0, 1 from source y 0.5, 2.5.
    const std::vector<float> expected = {25.5f, 45.5f, 27.5f, 47.5f};
    const std::vector<float> plane = firstPlane(t);
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_FLOAT_EQ(plane[i], expected[i]) << "pixel " << i;
}

TEST(ImageResize, StretchIgnoresTheAspect) {
    TempDir dir;
    writeImage(dir.file("a.png"), 8, 2, [](int x, int, int) { return x * 10; });
    const Tensor t = loadSample(dir.file("a.png"), imageInput({1, 3, 2, 2}), raw(ResizeMode::Exact));
    const std::vector<float> plane = firstPlane(t);
    EXPECT_FLOAT_EQ(plane[0], 15.0f);  // source x (0 + 0.5) * 4 - 0.5 = 1.5
    EXPECT_FLOAT_EQ(plane[1], 55.0f);  // 5.5
    EXPECT_FLOAT_EQ(plane[2], 15.0f);  // every row alike
}

TEST(ImageResize, ScalarMeanAndStdApplyToEveryChannel) {
    TempDir dir;
    writeImage(dir.file("a.png"), 1, 1, [](int, int, int c) { return 51 * (c + 1); });
    ImagePreprocess scalar;
    scalar.resize = ResizeMode::Exact;
    scalar.mean = {0.5f};
    scalar.stddev = {0.25f};
    ImagePreprocess perChannel = scalar;
    perChannel.mean = {0.5f, 0.5f, 0.5f};
    perChannel.stddev = {0.25f, 0.25f, 0.25f};
    const InputSpec spec = imageInput({1, 3, 1, 1});
    const Tensor a = loadSample(dir.file("a.png"), spec, scalar);
    const Tensor b = loadSample(dir.file("a.png"), spec, perChannel);
    for (int c = 0; c < 3; ++c) {
        EXPECT_FLOAT_EQ(a.data<float>()[c], b.data<float>()[c]);
        EXPECT_NEAR(a.data<float>()[c], (51.0f * (c + 1) / 255.0f - 0.5f) / 0.25f, 1e-5);
    }
}

TEST(ImageResize, AMeanOrStdOfAnotherCountSaysWhatToGive) {
    ImagePreprocess options;
    options.mean = {0.5f, 0.5f};
    auto g = imageGeometry(imageInput({1, 3, 8, 8}), options);
    ASSERT_FALSE(g.isOk());
    EXPECT_NE(g.status().message().find("the mean has 2 values but the model input has 3 channels; give one value "
                                        "(for every channel) or 3 (one per channel)"),
              std::string::npos)
        << g.status().message();
    options.mean = {0.485f, 0.456f, 0.406f};  // per channel on a grayscale input
    auto gray = imageGeometry(imageInput({1, 1, 8, 8}), options);
    ASSERT_FALSE(gray.isOk());
    EXPECT_NE(gray.status().message().find("has 1 channel; give one value"), std::string::npos);
    options.mean = {0.0f};
    options.stddev = {1.0f, 0.0f, 1.0f};
    auto zero = imageGeometry(imageInput({1, 3, 8, 8}), options);
    ASSERT_FALSE(zero.isOk());
    EXPECT_NE(zero.status().message().find("std of 0"), std::string::npos);
}

TEST(ImageResize, ChannelValuesParseFromText) {
    EXPECT_EQ(*parseChannelValues("0.5", "mean"), (std::vector<float>{0.5f}));
    EXPECT_EQ(*parseChannelValues(" 0.485, 0.456 0.406;", "mean"), (std::vector<float>{0.485f, 0.456f, 0.406f}));
    auto bad = parseChannelValues("0.5, x", "std");
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("the std '0.5, x' holds 'x', which is not a number"), std::string::npos);
    EXPECT_FALSE(parseChannelValues(" , ", "mean").isOk());
}

TEST(ImageResize, ModeNamesRoundTrip) {
    for (ResizeMode mode : {ResizeMode::ShorterSideThenCenterCrop, ResizeMode::Exact, ResizeMode::Letterbox})
        EXPECT_EQ(*parseResizeMode(resizeModeName(mode)), mode);
    EXPECT_FALSE(parseResizeMode("pad").isOk());
}

TEST(ImageResize, DefaultsComeFromTheModelInput) {
    const ImagePreprocess det = defaultImagePreprocess(imageInput({1, 3, 640, 640}));
    EXPECT_EQ(det.width, 640);
    EXPECT_EQ(det.height, 640);
    EXPECT_EQ(det.layout, ImageLayout::Nchw);
    EXPECT_EQ(det.order, ChannelOrder::Rgb);
    const ImagePreprocess nhwc = defaultImagePreprocess(imageInput({1, 240, 320, 3}));
    EXPECT_EQ(nhwc.layout, ImageLayout::Nhwc);
    EXPECT_EQ(nhwc.width, 320);
    EXPECT_EQ(nhwc.height, 240);
    const ImagePreprocess dynamic = defaultImagePreprocess(imageInput({-1, 3, -1, -1}));
    EXPECT_EQ(dynamic.width, 0);  // the size is the user's to give
    EXPECT_EQ(dynamic.layout, ImageLayout::Nchw);
    // No image input: nothing to tell (ASan saw the axes read past a rank-2 input's dims: make test-asan).
    EXPECT_EQ(defaultImagePreprocess(imageInput({1, 4})).layout, ImageLayout::Auto);
    EXPECT_EQ(defaultImagePreprocess(imageInput({1, 3, 8})).layout, ImageLayout::Auto);
}

}  // namespace
}  // namespace ql
