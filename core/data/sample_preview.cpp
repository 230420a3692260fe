#include "core/data/sample_preview.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace ql {
namespace {

ImageLayout layoutOf(const Shape& shape, ImageLayout layout) {
    if (shape.size() != 3) return ImageLayout::Auto;
    const auto isChannels = [](int64_t d) { return d == 1 || d == 3; };
    if (layout == ImageLayout::Nchw && isChannels(shape[0])) return layout;
    if (layout == ImageLayout::Nhwc && isChannels(shape[2])) return layout;
    if (layout != ImageLayout::Auto) return ImageLayout::Auto;
    if (isChannels(shape[0])) return ImageLayout::Nchw;
    if (isChannels(shape[2])) return ImageLayout::Nhwc;
    return ImageLayout::Auto;
}

uint8_t displayByte(float v) {
    return static_cast<uint8_t>(std::lround(std::clamp(std::isfinite(v) ? v : 0.0f, 0.0f, 255.0f)));
}

}  // namespace

SamplePreview previewSample(const Tensor& sample, ImageLayout layout, const ImagePreprocess* image) {
    SamplePreview p;
    p.shape = sample.shape();
    p.fromImage = image != nullptr;
    p.layout = layoutOf(p.shape, layout);
    if (image) p.order = image->order;
    const std::vector<float> values = sample.toFloats();
    const bool pictured = p.layout != ImageLayout::Auto;
    const bool nchw = p.layout == ImageLayout::Nchw;
    const int channels = pictured ? static_cast<int>(nchw ? p.shape[0] : p.shape[2]) : 1;
    const int h = pictured ? static_cast<int>(nchw ? p.shape[1] : p.shape[0]) : 0;
    const int w = pictured ? static_cast<int>(nchw ? p.shape[2] : p.shape[1]) : 0;
    const auto index = [&](int y, int x, int c) {
        return nchw ? (static_cast<size_t>(c) * h + y) * w + x : (static_cast<size_t>(y) * w + x) * channels + c;
    };
    p.minimum.assign(static_cast<size_t>(channels), std::numeric_limits<float>::infinity());
    p.maximum.assign(static_cast<size_t>(channels), -std::numeric_limits<float>::infinity());
    for (size_t i = 0; i < values.size(); ++i) {
        const size_t c = pictured ? (nchw ? i / (static_cast<size_t>(h) * w) : i % static_cast<size_t>(channels)) : 0;
        p.minimum[c] = std::min(p.minimum[c], values[i]);
        p.maximum[c] = std::max(p.maximum[c], values[i]);
    }
    if (!pictured || values.empty()) return p;

    // Images: back to pixels through the preprocessing. Arrays: the sample's own range over 0..255, the same for
    // every channel so their balance shows.
    const float low = *std::min_element(p.minimum.begin(), p.minimum.end());
    const float high = *std::max_element(p.maximum.begin(), p.maximum.end());
    const float stretch = high > low ? 255.0f / (high - low) : 0.0f;
    const auto pixel = [&](int y, int x, int c) {
        const float v = values[index(y, x, c)];
        if (!image) return displayByte((v - low) * stretch);
        return displayByte((v * channelValue(image->stddev, c) + channelValue(image->mean, c)) / image->scale);
    };
    p.width = w;
    p.height = h;
    p.rgb.resize(static_cast<size_t>(w) * h * 3);
    const bool bgr = p.order == ChannelOrder::Bgr && channels == 3;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int rgb = 0; rgb < 3; ++rgb) {
                const int c = channels == 1 ? 0 : (bgr ? 2 - rgb : rgb);
                p.rgb[(static_cast<size_t>(y) * w + x) * 3 + static_cast<size_t>(rgb)] = pixel(y, x, c);
            }
    return p;
}

Result<SamplePreview> previewFirstSample(const InputSpec& input, const DataSpec& data, const DataLimits& limits) {
    std::error_code ec;
    if (std::filesystem::is_directory(data.path, ec)) {
        QL_ASSIGN_OR_RETURN(SampleFolder folder, listSampleFolder(data.path));
        if (folder.images) {
            QL_ASSIGN_OR_RETURN(ImageGeometry geometry, imageGeometry(input, data.image));
            QL_ASSIGN_OR_RETURN(Tensor t, loadImage(folder.files.front(), data.image, geometry, limits));
            SamplePreview p = previewSample(t, geometry.layout, &data.image);
            p.source = folder.files.front();
            return p;
        }
    }
    // Arrays: read as calibration reads them, then the batch axis dropped.
    DataSpec only = data;
    only.input.clear();
    QL_ASSIGN_OR_RETURN(auto source, openDataSource({input}, {only}, limits));
    if (source->sampleCount() == 0) return invalidArgument(data.path + ": holds no samples");
    QL_ASSIGN_OR_RETURN(NamedTensors batch, source->read(0, 1));
    const Tensor& first = batch.front().second;
    const Shape shape(first.shape().begin() + 1, first.shape().end());
    const Tensor sample = Tensor::fromVector(DataType::Float, shape, first.toFloats());
    SamplePreview p = previewSample(sample, ImageLayout::Auto, nullptr);
    p.source = data.path;
    return p;
}

}  // namespace ql
