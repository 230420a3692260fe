// Issue 29, item 4: the preview of the first preprocessed sample (shape, channel axis and order, min/max per
// channel, a picture that undoes the normalisation) for a folder of images and for an array.
#include "core/data/sample_preview.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/data/npy.h"
#include "tests/core/data/image_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::imageInput;
using test::TempDir;
using test::writeImage;

TEST(SamplePreview, ImageFolderShowsThePreprocessedFirstImage) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("imgs"));
    writeImage(dir.file("imgs/b.png"), 4, 4, [](int, int, int) { return 0; });
    writeImage(dir.file("imgs/a.png"), 4, 2, [](int, int, int c) { return 50 * (c + 1); });  // first by name
    DataSpec data{"", dir.file("imgs"), {}};
    data.image.resize = ResizeMode::Letterbox;
    data.image.order = ChannelOrder::Bgr;
    data.image.mean = {0.4f, 0.5f, 0.6f};
    data.image.stddev = {0.2f};
    auto preview = previewFirstSample(imageInput({1, 3, 4, 4}), data);
    ASSERT_TRUE(preview.isOk()) << preview.status().message();
    EXPECT_TRUE(preview->fromImage);
    EXPECT_TRUE(preview->source.ends_with("a.png"));
    EXPECT_EQ(preview->shape, (Shape{3, 4, 4}));
    EXPECT_EQ(preview->layout, ImageLayout::Nchw);
    EXPECT_EQ(preview->order, ChannelOrder::Bgr);
    ASSERT_EQ(preview->minimum.size(), 3u);
    // Channel 0 is blue (150) in the image rows, the pad (114) in the border rows.
    EXPECT_NEAR(preview->minimum[0], (114.0f / 255.0f - 0.4f) / 0.2f, 1e-5);
    EXPECT_NEAR(preview->maximum[0], (150.0f / 255.0f - 0.4f) / 0.2f, 1e-5);
    EXPECT_NEAR(preview->maximum[2], (114.0f / 255.0f - 0.6f) / 0.2f, 1e-5);  // red (50) below the pad
    EXPECT_NEAR(preview->minimum[2], (50.0f / 255.0f - 0.6f) / 0.2f, 1e-5);
    // The picture is the image again, in RGB, with the grey border.
    ASSERT_EQ(preview->width, 4);
    ASSERT_EQ(preview->rgb.size(), 4u * 4u * 3u);
    EXPECT_EQ(preview->rgb[0], 114);
    const size_t row1 = 4 * 3;
    EXPECT_EQ(preview->rgb[row1 + 0], 50);
    EXPECT_EQ(preview->rgb[row1 + 1], 100);
    EXPECT_EQ(preview->rgb[row1 + 2], 150);
}

TEST(SamplePreview, ArraySampleIsStretchedOverItsOwnRange) {
    TempDir dir;
    std::vector<float> values(2 * 1 * 2 * 2);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) - 1.0f;  // -1, 0, 1, 2 first
    ASSERT_TRUE(writeNpy(dir.file("x.npy"), Tensor::fromVector(DataType::Float, {2, 1, 2, 2}, values)).isOk());
    auto preview = previewFirstSample(imageInput({-1, 1, 2, 2}), {"", dir.file("x.npy"), {}});
    ASSERT_TRUE(preview.isOk()) << preview.status().message();
    EXPECT_FALSE(preview->fromImage);
    EXPECT_EQ(preview->shape, (Shape{1, 2, 2}));
    EXPECT_EQ(preview->minimum, (std::vector<float>{-1.0f}));
    EXPECT_EQ(preview->maximum, (std::vector<float>{2.0f}));
    ASSERT_EQ(preview->rgb.size(), 2u * 2u * 3u);
    EXPECT_EQ(preview->rgb[0], 0);    // -1: black
    EXPECT_EQ(preview->rgb[9], 255);  // 2: white
    EXPECT_EQ(preview->rgb[3], 85);   // 0: a third of the way
}

TEST(SamplePreview, SampleWithoutChannelsHasOneRangeAndNoPicture) {
    const Tensor t = Tensor::fromVector(DataType::Float, {4}, std::vector<float>{3, -2, 5, 0});
    const SamplePreview p = previewSample(t, ImageLayout::Auto, nullptr);
    EXPECT_EQ(p.layout, ImageLayout::Auto);
    EXPECT_EQ(p.minimum, (std::vector<float>{-2.0f}));
    EXPECT_EQ(p.maximum, (std::vector<float>{5.0f}));
    EXPECT_EQ(p.width, 0);
    EXPECT_TRUE(p.rgb.empty());
}

TEST(SamplePreview, AnImageTheModelCannotTakeIsAnErrorNamingWhy) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("imgs"));
    writeImage(dir.file("imgs/a.png"), 4, 2, [](int, int, int) { return 0; });
    DataSpec data{"", dir.file("imgs"), {}};
    data.image.mean = {0.1f, 0.2f};
    auto preview = previewFirstSample(imageInput({1, 3, 4, 4}), data);
    ASSERT_FALSE(preview.isOk());
    EXPECT_NE(preview.status().message().find("the mean has 2 values"), std::string::npos);
}

}  // namespace
}  // namespace ql
