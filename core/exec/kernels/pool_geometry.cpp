#include "core/exec/kernels/pool_geometry.h"

#include <algorithm>

namespace ql {

Result<PoolAttributes> parsePoolAttributes(const KernelInit& info) {
    PoolAttributes a;
    a.kernel = info.node.intsAttribute("kernel_shape");
    if (a.kernel.empty() || a.kernel.size() > kPoolAxes)
        return info.fail("kernel_shape must give 1 to 3 spatial sizes");
    const size_t n = a.kernel.size();
    a.strides = info.node.intsAttribute("strides");
    a.dilations = info.node.intsAttribute("dilations");
    a.pads = info.node.intsAttribute("pads");
    if (a.strides.empty()) a.strides.assign(n, 1);
    if (a.dilations.empty()) a.dilations.assign(n, 1);
    if (a.pads.empty()) a.pads.assign(2 * n, 0);
    if (a.strides.size() != n || a.dilations.size() != n || a.pads.size() != 2 * n)
        return info.fail("strides, dilations and pads must match kernel_shape (" + std::to_string(n) + " axes)");
    for (size_t i = 0; i < n; ++i)
        if (a.kernel[i] < 1 || a.strides[i] < 1 || a.dilations[i] < 1 || a.pads[i] < 0 || a.pads[n + i] < 0)
            return info.fail("kernel_shape, strides and dilations must be positive and pads not negative");
    a.autoPad = info.node.stringAttribute("auto_pad", "NOTSET");
    if (a.autoPad != "NOTSET" && a.autoPad != "VALID" && a.autoPad != "SAME_UPPER" && a.autoPad != "SAME_LOWER")
        return info.fail("auto_pad '" + a.autoPad + "' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER");
    a.ceilMode = info.node.intAttribute("ceil_mode", 0) != 0;
    return a;
}

Result<PoolWindow> poolWindow(const KernelContext& ctx, const PoolAttributes& attrs, const Shape& input) {
    const size_t n = attrs.kernel.size();
    if (input.size() != n + 2)
        return ctx.fail("input " + shapeString(input) + " does not have rank " + std::to_string(n + 2) + " for a " +
                        std::to_string(n) + "-D kernel");
    PoolWindow w;
    w.batch = input[0];
    w.channels = input[1];
    w.outputShape = {input[0], input[1]};
    const size_t lead = kPoolAxes - n;
    for (size_t a = 0; a < kPoolAxes; ++a) {
        w.in[a] = w.kernel[a] = w.stride[a] = w.dilation[a] = w.out[a] = 1;
        w.padBegin[a] = w.padEnd[a] = 0;
    }
    for (size_t i = 0; i < n; ++i) {
        const size_t a = lead + i;
        const int64_t in = input[2 + i], s = attrs.strides[i], dk = (attrs.kernel[i] - 1) * attrs.dilations[i] + 1;
        int64_t pb = attrs.pads[i], pe = attrs.pads[n + i], out = 0;
        if (attrs.autoPad == "VALID") {
            pb = pe = 0;
            out = in >= dk ? (in - dk) / s + 1 : 0;
        } else if (attrs.autoPad == "SAME_UPPER" || attrs.autoPad == "SAME_LOWER") {
            out = (in + s - 1) / s;
            const int64_t total = std::max<int64_t>(0, (out - 1) * s + dk - in);
            pb = attrs.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            pe = total - pb;
        } else {
            const int64_t span = in + pb + pe - dk;
            if (span < 0) return ctx.fail("the pooling window is larger than the padded input " + shapeString(input));
            out = (attrs.ceilMode ? (span + s - 1) / s : span / s) + 1;
            // A window that would start past the input and its begin pad is dropped (ceil_mode).
            if (attrs.ceilMode && (out - 1) * s >= in + pb) --out;
        }
        w.in[a] = in;
        w.out[a] = out;
        w.kernel[a] = attrs.kernel[i];
        w.stride[a] = s;
        w.dilation[a] = attrs.dilations[i];
        w.padBegin[a] = pb;
        w.padEnd[a] = pe;
        w.outputShape.push_back(out);
    }
    return w;
}

}  // namespace ql
