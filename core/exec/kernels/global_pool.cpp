#include "core/exec/kernels/global_pool.h"

#include <algorithm>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

template <typename T>
void globalPool(const T* in, T* out, int64_t planes, int64_t size, bool max) {
    using A = typename ArithmeticOf<T>::type;
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const T* src = in + p * size;
        A acc = size > 0 && max ? toArithmetic(src[0]) : A{};
        for (int64_t i = 0; i < size; ++i) {
            const A v = toArithmetic(src[i]);
            acc = max ? std::max(acc, v) : static_cast<A>(acc + v);
        }
        out[p] = fromArithmetic<T>(max || size == 0 ? acc : static_cast<A>(acc / static_cast<A>(size)));
    }
}

// acc[i] = acc[i] + row[i] (or the max) over `pixels` rows `stride` floats apart: per channel the same float
// operations in the same order as globalPool on a plain plane. Cloned per vector width (baseline build).
__attribute__((target_clones("avx512f", "avx2", "default"))) void accumulateRows(const float* in, float* acc,
                                                                                 int64_t pixels, int64_t len,
                                                                                 int64_t stride, bool max) {
    for (int64_t p = 0; p < pixels; ++p, in += stride) {
        if (max)
            for (int64_t i = 0; i < len; ++i) acc[i] = std::max(acc[i], in[i]);
        else
            for (int64_t i = 0; i < len; ++i) acc[i] = acc[i] + in[i];
    }
}

// Global pooling of a float N x C x H x W tensor in channels-last (block 1) or channel-blocked layout into
// a plain N x C x 1 x 1 tensor, bit for bit what globalPool gives on the plain tensor. oneDNN's pooling
// reduces to one value per channel poorly: EfficientNet-B0's 16 squeeze-excite pools took 0.86 ms per
// inference on 2 threads, 3x their time on one.
Tensor poolInLayout(const Tensor& x, int64_t block, bool max) {
    const int64_t n = x.dim(0), c = x.dim(1), size = x.dim(2) * x.dim(3);
    // A piece is `len` channels of one image. Channels-last rows are split into pieces of 64 channels, so the
    // threads share even a single image (one piece per image left the second core idle).
    const bool channelsLast = block == 1;
    const int64_t len = channelsLast ? std::min<int64_t>(c, 64) : block;
    const int64_t stride = channelsLast ? c : block;  // floats from one pixel's channel c0 to the next pixel's
    const int64_t groups = (c + len - 1) / len;       // pieces per image
    const int64_t imageStride = channelsLast ? size * c : size * groups * len;  // blocked: channels padded
    Tensor y(DataType::Float, {n, c, 1, 1});
    const auto* in = static_cast<const float*>(x.rawData());
    float* out = y.data<float>();
    parallelFor(n * groups, std::max<int64_t>(1, kElementwiseGrain / (size * len)), [&](int64_t begin, int64_t end) {
        std::vector<float> acc(static_cast<size_t>(len));
        for (int64_t g = begin; g < end; ++g) {
            const int64_t image = g / groups, c0 = g % groups * len, width = std::min(len, c - c0);
            // pixel 0 of channels [c0, c0 + width)
            const float* first = in + image * imageStride + (channelsLast ? c0 : c0 * size);
            std::copy(first, first + width, acc.begin());  // what globalPool starts a max from; 0 + x for a sum
            if (!max) std::fill(acc.begin(), acc.end(), 0.0f);
            accumulateRows(first, acc.data(), size, width, stride, max);
            for (int64_t k = 0; k < width; ++k)
                out[image * c + c0 + k] =
                    max ? acc[static_cast<size_t>(k)] : acc[static_cast<size_t>(k)] / static_cast<float>(size);
        }
    });
    return y;
}

// One window covering the H x W plane.
PoolWindow wholePlane(const Shape& x) {
    PoolWindow w;
    w.batch = x[0];
    w.channels = x[1];
    w.in = {1, x[2], x[3]};
    w.out = {1, 1, 1};
    w.kernel = w.in;
    w.stride = w.dilation = {1, 1, 1};
    w.outputShape = {x[0], x[1], 1, 1};
    return w;
}

}  // namespace

Status GlobalPoolKernel::init(const KernelInit& info) {
    mMax = info.node.opType == "GlobalMaxPool";
    return Status::ok();
}

Status GlobalPoolKernel::compute(KernelContext& ctx) {
    if (!hasLayoutInput(ctx)) return computePlain(ctx);
    const Tensor& x = ctx.input(0);
    const int64_t block = x.dtype() == DataType::Float ? onednn::channelBlock(onednn::descOf(x), x.shape()) : -1;
    if (block > 0 && x.dim(2) * x.dim(3) > 0) {
        ctx.setOutput(0, poolInLayout(x, block, mMax));
        return Status::ok();
    }
    if (ctx.input(0).rank() == 4) {
        const auto op = mMax ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
        // The output is tiny: always plain.
        QL_ASSIGN_OR_RETURN(bool done, poolLayoutInput(ctx, op, wholePlane(ctx.input(0).shape()), false, mPoolCache));
        if (done) return Status::ok();
    }
    return computeOnPlain(ctx, [this](KernelContext& plain) { return computePlain(plain); });
}

Status GlobalPoolKernel::computePlain(KernelContext& ctx) const {
    const Tensor& in = ctx.input(0);
    if (in.rank() < 2) return ctx.fail("the input must be N x C x spatial..., not " + shapeString(in.shape()));
    Shape shape(in.rank(), 1);
    shape[0] = in.dim(0);
    shape[1] = in.dim(1);
    const int64_t planes = in.dim(0) * in.dim(1);
    const int64_t size = planes == 0 ? 0 : in.elementCount() / planes;
    Tensor& out = ctx.allocateOutput(0, in.dtype(), shape);
    bool floating = false;
    visitNumeric(in.dtype(), [&]<typename T>(T) {
        if constexpr (std::is_floating_point_v<typename ArithmeticOf<T>::type>) {
            globalPool(in.data<T>(), out.data<T>(), planes, size, mMax);
            floating = true;
        }
    });
    if (!floating)
        return ctx.fail(std::string("dtype ") + dataTypeName(in.dtype()) + " is not supported (float types only)");
    return Status::ok();
}

}  // namespace ql
