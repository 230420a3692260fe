#include "core/exec/kernels/resize.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/resize_bilinear.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

template <typename E>
Result<E> parseEnum(const KernelInit& info, const std::string& attr, const std::string& fallback,
                    const std::map<std::string, E>& names) {
    const std::string value = info.node.stringAttribute(attr, fallback);
    const auto it = names.find(value);
    if (it == names.end()) return info.fail(attr + " '" + value + "' is not supported");
    return it->second;
}

// out[outer][o][inner] = sum of weight * in[outer][index][inner] over the taps of o.
std::vector<float> resampleAxis(const std::vector<float>& in, int64_t outer, int64_t inDim, int64_t inner,
                                const AxisTaps& taps, int64_t outDim) {
    std::vector<float> out(static_cast<size_t>(outer * outDim * inner), 0.0f);
    const int64_t n = taps.tapsPerOutput;
    const ResizeTap* t = taps.taps.data();
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < outer; ++b) {
        const float* src = in.data() + b * inDim * inner;
        float* dst = out.data() + b * outDim * inner;
        for (int64_t o = 0; o < outDim; ++o, dst += inner) {
            const ResizeTap* tap = t + o * n;
            if (inner == 1) {  // the last axis: one dot product per output element
                float sum = 0.0f;
                for (int64_t k = 0; k < n; ++k) sum += tap[k].weight * src[tap[k].index];
                *dst = sum;
                continue;
            }
            for (int64_t k = 0; k < n; ++k) {
                const float w = tap[k].weight;
                const float* row = src + tap[k].index * inner;
#pragma omp simd
                for (int64_t j = 0; j < inner; ++j) dst[j] += w * row[j];
            }
        }
    }
    return out;
}

// Resamples one axis at a time in float: linear and cubic are separable (nearest is one tap of weight 1).
std::vector<float> interpolate(const Tensor& in, const Shape& shape, const std::vector<AxisTaps>& taps) {
    std::vector<float> values = in.toFloats();
    Shape current = in.shape();
    for (size_t d = 0; d < shape.size(); ++d) {
        if (taps[d].identity) continue;
        const auto at = current.begin() + static_cast<std::ptrdiff_t>(d);
        const int64_t outer = shapeElementCount(Shape(current.begin(), at));
        const int64_t inner = shapeElementCount(Shape(at + 1, current.end()));
        values = resampleAxis(values, outer, current[d], inner, taps[d], shape[d]);
        current[d] = shape[d];
    }
    return values;
}

// Integers round to nearest and saturate (uint8 images stay in [0, 255]).
template <typename A>
A saturate(double v) {
    if constexpr (std::is_integral_v<A>) {
        v = std::nearbyint(v);
        if (v <= static_cast<double>(std::numeric_limits<A>::lowest())) return std::numeric_limits<A>::lowest();
        if (v >= static_cast<double>(std::numeric_limits<A>::max())) return std::numeric_limits<A>::max();
    }
    return static_cast<A>(v);
}

bool storeFloats(const std::vector<float>& values, Tensor& out) {
    return visitNumeric(out.dtype(), [&]<typename T>(T) {
        T* dst = out.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            dst[i] = fromArithmetic<T>(saturate<typename ArithmeticOf<T>::type>(values[i]));
    });
}

// Nearest resizing copies elements as bytes, so it is exact for every dtype.
void nearestGather(const Tensor& in, Tensor& out, const std::vector<AxisTaps>& taps) {
    const Shape& shape = out.shape();
    const size_t rank = shape.size(), size = dataTypeSize(in.dtype());
    if (rank == 0) {
        copyElements(out, 0, in, 0, 1);
        return;
    }
    const Strides strides = contiguousStrides(in.shape());
    std::vector<int64_t> lastAxis;
    for (const ResizeTap& tap : taps.back().taps) lastAxis.push_back(tap.index);
    const int64_t inner = shape.back(), rows = out.elementCount() / inner;
    std::vector<int64_t> pos(rank, 0);
    for (int64_t r = 0; r < rows; ++r) {
        int64_t base = 0;
        for (size_t d = 0; d + 1 < rank; ++d) base += taps[d].taps[static_cast<size_t>(pos[d])].index * strides[d];
        gatherRow(bytesOf(out) + static_cast<size_t>(r * inner) * size, bytesOf(in) + static_cast<size_t>(base) * size,
                  lastAxis, size);
        for (size_t d = rank - 1; d-- > 0;) {
            if (++pos[d] < shape[d]) break;
            pos[d] = 0;
        }
    }
}

// True when output element `flat` lies outside the tf_crop_and_resize crop on some axis.
bool outsideCrop(const std::vector<AxisTaps>& taps, const Shape& shape, int64_t flat) {
    for (size_t d = shape.size(); d-- > 0;) {
        if (taps[d].outside[static_cast<size_t>(flat % shape[d])]) return true;
        flat /= shape[d];
    }
    return false;
}

}  // namespace

Status ResizeKernel::init(const KernelInit& info) {
    const bool upsample = info.node.opType == "Upsample";
    mHasRoiAndSizes = !upsample && info.opset >= 11;
    mScalesInput = mHasRoiAndSizes ? 2 : (upsample && info.opset < 9 ? -1 : 1);
    if (mScalesInput < 0) {
        const onnx::AttributeProto* scales = info.node.attribute("scales");
        if (!scales || scales->floats_size() == 0) return info.fail("the scales attribute is required");
        mScales.assign(scales->floats().begin(), scales->floats().end());
    }
    QL_ASSIGN_OR_RETURN(mOptions.mode, parseEnum<ResizeMode>(info, "mode", "nearest",
                                                             {{"nearest", ResizeMode::Nearest},
                                                              {"linear", ResizeMode::Linear},
                                                              {"bilinear", ResizeMode::Linear},
                                                              {"cubic", ResizeMode::Cubic}}));
    if (!mHasRoiAndSizes) {  // Upsample and Resize-10: asymmetric coordinates, nearest floors when upsampling
        mOptions.coordinates = CoordinateMode::Asymmetric;
        mOptions.nearest = NearestMode::Simple;
        return Status::ok();
    }
    QL_ASSIGN_OR_RETURN(mOptions.coordinates,
                        parseEnum<CoordinateMode>(info, "coordinate_transformation_mode", "half_pixel",
                                                  {{"half_pixel", CoordinateMode::HalfPixel},
                                                   {"pytorch_half_pixel", CoordinateMode::PytorchHalfPixel},
                                                   {"align_corners", CoordinateMode::AlignCorners},
                                                   {"asymmetric", CoordinateMode::Asymmetric},
                                                   {"tf_half_pixel_for_nearest", CoordinateMode::TfHalfPixelForNearest},
                                                   {"tf_half_pixel_for_nn", CoordinateMode::TfHalfPixelForNearest},
                                                   {"tf_crop_and_resize", CoordinateMode::TfCropAndResize},
                                                   {"half_pixel_symmetric", CoordinateMode::HalfPixelSymmetric}}));
    QL_ASSIGN_OR_RETURN(mOptions.nearest, parseEnum<NearestMode>(info, "nearest_mode", "round_prefer_floor",
                                                                 {{"round_prefer_floor", NearestMode::RoundPreferFloor},
                                                                  {"round_prefer_ceil", NearestMode::RoundPreferCeil},
                                                                  {"floor", NearestMode::Floor},
                                                                  {"ceil", NearestMode::Ceil}}));
    mOptions.cubicA = info.node.floatAttribute("cubic_coeff_a", -0.75f);
    mOptions.excludeOutside = info.node.intAttribute("exclude_outside", 0) != 0;
    mExtrapolation = info.node.floatAttribute("extrapolation_value", 0.0f);
    if (info.node.intAttribute("antialias", 0) != 0) return info.fail("antialias (opset 18) is not supported");
    mAxes = info.node.intsAttribute("axes");
    mAspectPolicy = info.node.stringAttribute("keep_aspect_ratio_policy", "stretch");
    if (mAspectPolicy != "stretch" && mAspectPolicy != "not_larger" && mAspectPolicy != "not_smaller")
        return info.fail("keep_aspect_ratio_policy '" + mAspectPolicy + "' is not stretch, not_larger or not_smaller");
    return Status::ok();
}

Status ResizeKernel::fullScales(const KernelContext& ctx, std::vector<float>& scales, Shape& shape) const {
    const Tensor& in = ctx.input(0);
    const size_t rank = in.rank();
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> axes,
                        normalizeAxes(ctx, mAxes.empty() ? std::vector<int64_t>() : mAxes, static_cast<int64_t>(rank)));
    std::vector<size_t> given;  // the axes the inputs list, in their order
    for (size_t i = 0; i < (axes.empty() ? rank : axes.size()); ++i)
        given.push_back(axes.empty() ? i : static_cast<size_t>(axes[i]));
    std::vector<float> partial = mScales;
    if (mScalesInput > 0 && ctx.hasInput(static_cast<size_t>(mScalesInput)))
        partial = ctx.input(static_cast<size_t>(mScalesInput)).toFloats();
    scales.assign(rank, 1.0f);
    shape = in.shape();
    if (!partial.empty()) {
        if (partial.size() != given.size()) return ctx.fail("scales must hold one value per resized axis");
        for (size_t i = 0; i < given.size(); ++i) {
            if (partial[i] <= 0) return ctx.fail("scales must be positive");
            scales[given[i]] = partial[i];
            shape[given[i]] = static_cast<int64_t>(std::floor(static_cast<double>(in.dim(given[i])) * partial[i]));
        }
        return Status::ok();
    }
    if (!mHasRoiAndSizes || !ctx.hasInput(3)) return ctx.fail("needs either scales or sizes");
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> sizes, readInt64Input(ctx, 3));
    if (sizes.size() != given.size() || std::any_of(sizes.begin(), sizes.end(), [](int64_t d) { return d < 0; }))
        return ctx.fail("sizes must hold one non-negative value per resized axis of " + shapeString(in.shape()));
    std::optional<float> kept;  // keep_aspect_ratio_policy: one scale for every listed axis
    for (size_t i = 0; i < given.size() && mAspectPolicy != "stretch"; ++i) {
        const float s = static_cast<float>(sizes[i]) / static_cast<float>(std::max<int64_t>(1, in.dim(given[i])));
        kept = !kept ? s : (mAspectPolicy == "not_larger" ? std::min(*kept, s) : std::max(*kept, s));
    }
    for (size_t i = 0; i < given.size(); ++i) {
        const size_t d = given[i];
        const int64_t inDim = in.dim(d);
        shape[d] = kept
                       ? static_cast<int64_t>(std::floor(static_cast<double>(*kept) * static_cast<double>(inDim) + 0.5))
                       : sizes[i];
        scales[d] = kept ? *kept : (inDim == 0 ? 1.0f : static_cast<float>(sizes[i]) / static_cast<float>(inDim));
    }
    return Status::ok();
}

Result<ResizeKernel::Plan> ResizeKernel::plan(const KernelContext& ctx) const {
    const Tensor& in = ctx.input(0);
    const size_t rank = in.rank();
    Plan p;
    std::vector<float> scales;
    QL_RETURN_IF_ERROR(fullScales(ctx, scales, p.shape));
    std::vector<float> roi;  // per axis: starts then ends, over every axis
    if (mOptions.coordinates == CoordinateMode::TfCropAndResize) {
        const size_t listed = mAxes.empty() ? rank : mAxes.size();
        if (!ctx.hasInput(1) || ctx.input(1).elementCount() != static_cast<int64_t>(2 * listed))
            return ctx.fail("tf_crop_and_resize needs roi with 2 values per resized axis");
        const std::vector<float> given = ctx.input(1).toFloats();
        roi.assign(rank, 0.0f);
        roi.resize(2 * rank, 1.0f);
        for (size_t i = 0; i < listed; ++i) {
            const size_t d =
                mAxes.empty() ? i : static_cast<size_t>(*normalizeAxis(mAxes[i], static_cast<int64_t>(rank)));
            roi[d] = given[i];
            roi[rank + d] = given[listed + i];
        }
    }
    p.scales = scales;
    for (size_t d = 0; d < rank; ++d) {
        p.taps.push_back(resizeTaps(mOptions, in.dim(d), p.shape[d], scales[d], roi.empty() ? 0.0f : roi[d],
                                    roi.empty() ? 1.0f : roi[rank + d]));
        const auto& outside = p.taps.back().outside;
        p.crops = p.crops || std::any_of(outside.begin(), outside.end(), [](bool b) { return b; });
    }
    return p;
}

Status ResizeKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    QL_ASSIGN_OR_RETURN(Plan p, plan(ctx));
    Tensor& out = ctx.allocateOutput(0, in.dtype(), p.shape);
    if (out.elementCount() == 0) return Status::ok();
    if (in.elementCount() == 0) return ctx.fail("cannot resize an empty tensor to " + shapeString(p.shape));
    if (mOptions.mode == ResizeMode::Nearest && !p.crops) {
        nearestGather(in, out, p.taps);
        return Status::ok();
    }
    if (bilinearCase(in, p.shape, mOptions)) {
        const size_t rank = in.rank();
        resizeBilinear(in, out, mOptions.coordinates, p.scales[rank - 2], p.scales[rank - 1]);
        return Status::ok();
    }
    std::vector<float> values = interpolate(in, p.shape, p.taps);
    if (p.crops)
        for (int64_t i = 0; i < out.elementCount(); ++i)
            if (outsideCrop(p.taps, p.shape, i)) values[static_cast<size_t>(i)] = mExtrapolation;
    if (!storeFloats(values, out))
        return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported");
    return Status::ok();
}

}  // namespace ql
