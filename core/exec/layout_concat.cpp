#include "core/exec/layout_concat.h"

#include <cstring>
#include <optional>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/onednn_util.h"

namespace ql {

Status LayoutConcatKernel::init(const KernelInit& info) {
    mAxis = info.node.intAttribute("axis", 0);
    return Status::ok();
}

// Float N x C x H x W inputs (at least one element each) joined along C.
bool LayoutConcatKernel::fits(const KernelContext& ctx) const {
    if (mAxis != 1 && mAxis != -3) return false;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) return false;
        const Tensor& t = ctx.input(i);
        const Shape& first = ctx.input(0).shape();
        if (t.dtype() != DataType::Float || t.rank() != 4 || t.elementCount() == 0) return false;
        if (t.dim(0) != first[0] || t.dim(2) != first[2] || t.dim(3) != first[3]) return false;
    }
    return ctx.inputCount() > 0;
}

namespace {

// Channels-last inputs joined along C into a channels-last output, one output pixel after the other (each
// input's channels in turn), in parallel over pixels; nullopt unless every input is channels-last. Writing the
// output in order matters: oneDNN 2.6's concat here writes each input's slice of every pixel in turn, and took
// twice ONNX Runtime's time on DenseNet-121 (12.5 against 6.9 ms per inference).
std::optional<Tensor> concatChannelsLast(const KernelContext& ctx, const Shape& shape) {
    std::vector<const float*> sources;
    std::vector<int64_t> widths;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        const Tensor& t = ctx.input(i);
        if (onednn::channelBlock(t) != 1) return std::nullopt;
        sources.push_back(static_cast<const float*>(t.rawData()));
        widths.push_back(t.dim(1));
    }
    const int64_t channels = shape[1], pixels = shape[0] * shape[2] * shape[3];
    const dnnl::memory::dims dims(shape.begin(), shape.end());
    Tensor y = onednn::allocateIn(
        dnnl::memory::desc(dims, dnnl::memory::data_type::f32, dnnl::memory::format_tag::acdb), shape);
    auto* out = static_cast<float*>(y.rawData());
    parallelFor(pixels, std::max<int64_t>(1, kElementwiseGrain / channels), [&](int64_t begin, int64_t end) {
        float* dst = out + begin * channels;
        for (int64_t p = begin; p < end; ++p)
            for (size_t i = 0; i < sources.size(); ++i) {
                std::memcpy(dst, sources[i] + p * widths[i], static_cast<size_t>(widths[i]) * sizeof(float));
                dst += widths[i];
            }
    });
    return y;
}

}  // namespace

Status LayoutConcatKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return mPlain.compute(ctx);
    if (!fits(ctx)) return computeOnPlain(ctx, [this](KernelContext& plain) { return mPlain.compute(plain); });
    Shape shape = ctx.input(0).shape();
    shape[1] = 0;
    for (size_t i = 0; i < ctx.inputCount(); ++i) shape[1] += ctx.input(i).dim(1);
    if (mKeepLayout) {
        if (auto y = concatChannelsLast(ctx, shape)) {
            ctx.setOutput(0, std::move(*y));
            return Status::ok();
        }
    }
    std::vector<dnnl::memory::desc> srcs;
    std::unordered_map<int, dnnl::memory> args;
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        srcs.push_back(onednn::descOf(ctx.input(i)));
        args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = onednn::memoryOf(ctx.input(i));
    }
    try {
        const auto dst = mKeepLayout ? onednn::anyDesc(shape) : onednn::plainDesc(shape);
        dnnl::concat::primitive_desc pd(dst, 1, srcs, onednn::engine());
        Tensor y = onednn::allocateIn(pd.dst_desc(), shape);
        args[DNNL_ARG_DST] = onednn::memoryOf(y);
        dnnl::concat(pd).execute(onednn::stream(), args);
        onednn::stream().wait();
        ctx.setOutput(0, std::move(y));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this Concat: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
