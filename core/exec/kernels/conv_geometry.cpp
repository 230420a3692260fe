#include "core/exec/kernels/conv_geometry.h"

#include "core/exec/kernels/onednn_layer.h"

#include <algorithm>

namespace ql {

namespace {

bool allPositive(const Shape& v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; });
}

// Checks attribute lengths against the spatial rank and fills defaults (1 for strides / dilations, 0 pads).
Status spatialDefaults(const KernelContext& ctx, const ConvAttributes& attrs, size_t spatial, const Shape& kernel,
                       ConvGeometry& g) {
    auto sized = [&](const Shape& v, size_t n, const char* name) -> Status {
        if (!v.empty() && v.size() != n)
            return ctx.fail(std::string(name) + " has " + std::to_string(v.size()) + " values, expected " +
                            std::to_string(n) + " for a " + std::to_string(spatial) + "-D input");
        return Status::ok();
    };
    QL_RETURN_IF_ERROR(sized(attrs.strides, spatial, "strides"));
    QL_RETURN_IF_ERROR(sized(attrs.dilations, spatial, "dilations"));
    QL_RETURN_IF_ERROR(sized(attrs.pads, 2 * spatial, "pads"));
    QL_RETURN_IF_ERROR(sized(attrs.kernelShape, spatial, "kernel_shape"));
    QL_RETURN_IF_ERROR(sized(attrs.outputPadding, spatial, "output_padding"));
    if (!attrs.kernelShape.empty() && attrs.kernelShape != kernel)
        return ctx.fail("kernel_shape " + shapeString(attrs.kernelShape) + " does not match the weights' " +
                        shapeString(kernel));
    g.stride = attrs.strides.empty() ? Shape(spatial, 1) : attrs.strides;
    g.dilation = attrs.dilations.empty() ? Shape(spatial, 1) : attrs.dilations;
    g.padBegin.assign(spatial, 0);
    g.padEnd.assign(spatial, 0);
    if (attrs.autoPad == "NOTSET" && !attrs.pads.empty()) {
        g.padBegin.assign(attrs.pads.begin(), attrs.pads.begin() + static_cast<long>(spatial));
        g.padEnd.assign(attrs.pads.begin() + static_cast<long>(spatial), attrs.pads.end());
    }
    return Status::ok();
}

// Splits a total padding between begin and end: SAME_UPPER puts the odd cell at the end. Halves round
// down as in the ONNX spec's Python, so a negative total (output_shape beyond the natural size) grows the end.
void splitPadding(int64_t total, bool upper, int64_t& begin, int64_t& end) {
    const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
    begin = upper ? half : total - half;
    end = total - begin;
}

Status checkRanks(const KernelContext& ctx, const Shape& x, const Shape& w) {
    if (x.size() < 3 || w.size() != x.size())
        return ctx.fail("input " + shapeString(x) + " and weights " + shapeString(w) +
                        " must have the same rank, at least 3 ([N, C, spatial...])");
    return Status::ok();
}

}  // namespace

Result<ConvAttributes> parseConvAttributes(const KernelInit& info, bool transposed) {
    ConvAttributes a;
    const Node& n = info.node;
    a.autoPad = n.stringAttribute("auto_pad", "NOTSET");
    if (a.autoPad != "NOTSET" && a.autoPad != "SAME_UPPER" && a.autoPad != "SAME_LOWER" && a.autoPad != "VALID")
        return info.fail("auto_pad '" + a.autoPad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    a.group = n.intAttribute("group", 1);
    a.dilations = n.intsAttribute("dilations");
    a.kernelShape = n.intsAttribute("kernel_shape");
    a.pads = n.intsAttribute("pads");
    a.strides = n.intsAttribute("strides");
    if (transposed) {
        a.outputPadding = n.intsAttribute("output_padding");
        a.outputShape = n.intsAttribute("output_shape");
    }
    if (a.group < 1) return info.fail("group must be at least 1, got " + std::to_string(a.group));
    if (!allPositive(a.dilations) || !allPositive(a.strides) || !allPositive(a.kernelShape))
        return info.fail("strides, dilations and kernel_shape must be positive");
    if (std::any_of(a.pads.begin(), a.pads.end(), [](int64_t p) { return p < 0; }))
        return info.fail("pads must not be negative");
    return a;
}

Result<ConvGeometry> convGeometry(const KernelContext& ctx, const ConvAttributes& attrs, const Shape& x,
                                  const Shape& w) {
    QL_RETURN_IF_ERROR(checkRanks(ctx, x, w));
    const size_t spatial = x.size() - 2;
    if (w[1] * attrs.group != x[1] || w[0] % attrs.group != 0)
        return ctx.fail("weights " + shapeString(w) + " do not fit input " + shapeString(x) + " with group " +
                        std::to_string(attrs.group) + " (W must be [M, C/group, k...] with M divisible by group)");
    ConvGeometry g;
    QL_RETURN_IF_ERROR(spatialDefaults(ctx, attrs, spatial, Shape(w.begin() + 2, w.end()), g));
    g.outputShape = {x[0], w[0]};
    for (size_t i = 0; i < spatial; ++i) {
        const int64_t in = x[i + 2], k = (w[i + 2] - 1) * g.dilation[i] + 1, s = g.stride[i];
        if (attrs.autoPad == "SAME_UPPER" || attrs.autoPad == "SAME_LOWER") {
            const int64_t out = (in + s - 1) / s;
            splitPadding(std::max<int64_t>(0, (out - 1) * s + k - in), attrs.autoPad == "SAME_UPPER", g.padBegin[i],
                         g.padEnd[i]);
        }
        const int64_t span = in + g.padBegin[i] + g.padEnd[i] - k;
        if (span < 0)
            return ctx.fail("input " + shapeString(x) + " is smaller than the dilated kernel along axis " +
                            std::to_string(i + 2));
        g.outputShape.push_back(span / s + 1);
    }
    return g;
}

Result<ConvGeometry> convTransposeGeometry(const KernelContext& ctx, const ConvAttributes& attrs, const Shape& x,
                                           const Shape& w) {
    QL_RETURN_IF_ERROR(checkRanks(ctx, x, w));
    const size_t spatial = x.size() - 2;
    if (w[0] != x[1])
        return ctx.fail("weights " + shapeString(w) + " do not fit input " + shapeString(x) +
                        " (W must be [C, M/group, k...])");
    if (x[1] % attrs.group != 0)
        return ctx.fail("input channels " + std::to_string(x[1]) + " are not divisible by group " +
                        std::to_string(attrs.group));
    ConvGeometry g;
    QL_RETURN_IF_ERROR(spatialDefaults(ctx, attrs, spatial, Shape(w.begin() + 2, w.end()), g));
    Shape requested = attrs.outputShape;
    if (requested.size() == spatial + 2) requested.erase(requested.begin(), requested.begin() + 2);
    if (!requested.empty() && requested.size() != spatial)
        return ctx.fail("output_shape " + shapeString(attrs.outputShape) + " does not have one value per spatial axis");
    const bool same = attrs.autoPad == "SAME_UPPER" || attrs.autoPad == "SAME_LOWER";
    g.outputShape = {x[0], w[1] * attrs.group};
    for (size_t i = 0; i < spatial; ++i) {
        const int64_t in = x[i + 2], k = (w[i + 2] - 1) * g.dilation[i] + 1, s = g.stride[i];
        const int64_t extra = attrs.outputPadding.empty() ? 0 : attrs.outputPadding[i];
        const int64_t natural = s * (in - 1) + extra + k;
        if (!requested.empty() || same) {
            const int64_t out = requested.empty() ? in * s : requested[i];
            splitPadding(natural - out, attrs.autoPad == "SAME_UPPER", g.padBegin[i], g.padEnd[i]);
        }
        const int64_t out = natural - g.padBegin[i] - g.padEnd[i];
        if (out <= 0)
            return ctx.fail("pads leave no output along axis " + std::to_string(i + 2) + " for input " +
                            shapeString(x));
        g.outputShape.push_back(out);
    }
    return g;
}

Status checkConvInputTypes(const KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const bool hasBias = ctx.hasInput(2);
    if (!isFloatingType(x.dtype()) || w.dtype() != x.dtype() || (hasBias && ctx.input(2).dtype() != x.dtype()))
        return ctx.fail(std::string("inputs must share one float type; got X ") + dataTypeName(x.dtype()) + ", W " +
                        dataTypeName(w.dtype()));
    return Status::ok();
}

}  // namespace ql
