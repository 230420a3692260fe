#include "core/exec/kernels/roi_align.h"

#include <algorithm>
#include <cmath>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

// The four corners and weights of one bilinear sample (all weights 0 outside the image).
struct Sample {
    int64_t pos[4] = {0, 0, 0, 0};
    float weight[4] = {0, 0, 0, 0};
};

Sample bilinearSample(float y, float x, int64_t height, int64_t width) {
    Sample s;
    if (y < -1.0f || y > static_cast<float>(height) || x < -1.0f || x > static_cast<float>(width)) return s;
    y = std::max(y, 0.0f), x = std::max(x, 0.0f);
    auto low = static_cast<int64_t>(y), left = static_cast<int64_t>(x), high = low + 1, right = left + 1;
    if (low >= height - 1) high = low = height - 1, y = static_cast<float>(low);
    if (left >= width - 1) right = left = width - 1, x = static_cast<float>(left);
    const float ly = y - static_cast<float>(low), lx = x - static_cast<float>(left), hy = 1 - ly, hx = 1 - lx;
    s = {{low * width + left, low * width + right, high * width + left, high * width + right},
         {hy * hx, hy * lx, ly * hx, ly * lx}};
    return s;
}

}  // namespace

Status RoiAlignKernel::init(const KernelInit& info) {
    const std::string mode = info.node.stringAttribute("mode", "avg");
    if (mode != "avg" && mode != "max") return info.fail("mode must be avg or max, not '" + mode + "'");
    mMax = mode == "max";
    const std::string coordinates = info.node.stringAttribute("coordinate_transformation_mode",
                                                              info.opset >= 16 ? "half_pixel" : "output_half_pixel");
    if (coordinates != "half_pixel" && coordinates != "output_half_pixel")
        return info.fail("coordinate_transformation_mode must be half_pixel or output_half_pixel");
    mHalfPixel = coordinates == "half_pixel";
    mHeight = info.node.intAttribute("output_height", 1);
    mWidth = info.node.intAttribute("output_width", 1);
    mSamplingRatio = info.node.intAttribute("sampling_ratio", 0);
    mSpatialScale = info.node.floatAttribute("spatial_scale", 1.0f);
    if (mHeight < 1 || mWidth < 1 || mSamplingRatio < 0)
        return info.fail("output_height and output_width must be positive and sampling_ratio not negative");
    return Status::ok();
}

Status RoiAlignKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || !ctx.hasInput(2))
        return ctx.fail("needs inputs X, rois and batch_indices");
    const DataType dtype = ctx.input(0).dtype();
    const Tensor& xt = ctx.input(0);
    const std::vector<float> x = xt.toFloats(), rois = ctx.input(1).toFloats();
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> batches, readInt64Input(ctx, 2));
    if (xt.rank() != 4 || ctx.input(1).rank() != 2 || ctx.input(1).dim(1) != 4 ||
        static_cast<int64_t>(batches.size()) != ctx.input(1).dim(0))
        return ctx.fail("X must be [N, C, H, W], rois [R, 4] and batch_indices [R]");
    const int64_t channels = xt.dim(1), height = xt.dim(2), width = xt.dim(3), count = ctx.input(1).dim(0);
    Tensor y(DataType::Float, {count, channels, mHeight, mWidth});
    const float offset = mHalfPixel ? 0.5f : 0.0f;
    for (int64_t r = 0; r < count; ++r) {
        if (batches[static_cast<size_t>(r)] < 0 || batches[static_cast<size_t>(r)] >= xt.dim(0))
            return ctx.fail("batch index " + std::to_string(batches[static_cast<size_t>(r)]) + " is out of range");
        const float* roi = rois.data() + r * 4;
        const float startW = roi[0] * mSpatialScale - offset, startH = roi[1] * mSpatialScale - offset;
        float roiW = roi[2] * mSpatialScale - offset - startW, roiH = roi[3] * mSpatialScale - offset - startH;
        if (!mHalfPixel) roiW = std::max(roiW, 1.0f), roiH = std::max(roiH, 1.0f);
        const float binH = roiH / static_cast<float>(mHeight), binW = roiW / static_cast<float>(mWidth);
        const int64_t gridH =
            mSamplingRatio > 0 ? mSamplingRatio : static_cast<int64_t>(std::ceil(roiH / static_cast<float>(mHeight)));
        const int64_t gridW =
            mSamplingRatio > 0 ? mSamplingRatio : static_cast<int64_t>(std::ceil(roiW / static_cast<float>(mWidth)));
        const float samples = static_cast<float>(std::max<int64_t>(gridH * gridW, 1));
        for (int64_t ph = 0; ph < mHeight; ++ph)
            for (int64_t pw = 0; pw < mWidth; ++pw) {
                std::vector<Sample> taps;
                for (int64_t iy = 0; iy < gridH; ++iy)
                    for (int64_t ix = 0; ix < gridW; ++ix)
                        taps.push_back(
                            bilinearSample(startH + static_cast<float>(ph) * binH +
                                               (static_cast<float>(iy) + .5f) * binH / static_cast<float>(gridH),
                                           startW + static_cast<float>(pw) * binW +
                                               (static_cast<float>(ix) + .5f) * binW / static_cast<float>(gridW),
                                           height, width));
                for (int64_t c = 0; c < channels; ++c) {
                    const float* plane = x.data() + (batches[static_cast<size_t>(r)] * channels + c) * height * width;
                    float value = 0.0f;
                    bool first = true;
                    for (const Sample& s : taps)
                        for (int k = 0; k < 4; ++k) {
                            const float v = s.weight[k] * plane[s.pos[k]];
                            if (!mMax)
                                value += v;
                            else if (first || v > value)
                                value = v, first = false;
                        }
                    y.data<float>()[((r * channels + c) * mHeight + ph) * mWidth + pw] = mMax ? value : value / samples;
                }
            }
    }
    if (dtype == DataType::Double) {
        const std::vector<float> v = y.toFloats();
        ctx.setOutput(0, Tensor::fromVector(dtype, y.shape(), std::vector<double>(v.begin(), v.end())));
        return Status::ok();
    }
    setOutputAs(ctx, 0, std::move(y), dtype);
    return Status::ok();
}

}  // namespace ql
