#include "core/exec/kernels/global_pool.h"

#include <algorithm>

#include "core/common/target_clones.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/kernels/type_dispatch.h"

namespace ql {

namespace {

// A global average sums each channel in runs of kSumRun pixels, then adds the runs' sums in order: the plain
// and the layout kernels (below) then do the same float operations, and the layout one can give each thread
// its own pixels, which the convolution before it left in that core's cache (split by channels, both threads
// read the whole map: EfficientNet-B0's squeeze-excite pools took 0.6 ms on 2 threads, 0.37 on one).
constexpr int64_t kSumRun = 64;

template <typename T>
void globalPool(const T* in, T* out, int64_t planes, int64_t size, bool max) {
    using A = typename ArithmeticOf<T>::type;
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
        const T* src = in + p * size;
        A acc = size > 0 && max ? toArithmetic(src[0]) : A{};
        if (max) {
            for (int64_t i = 0; i < size; ++i) acc = std::max(acc, toArithmetic(src[i]));
        } else {
            for (int64_t run = 0; run < size; run += kSumRun) {
                A sum{};
                for (int64_t i = run; i < std::min(size, run + kSumRun); ++i)
                    sum = static_cast<A>(sum + toArithmetic(src[i]));
                acc = static_cast<A>(acc + sum);
            }
        }
        out[p] = fromArithmetic<T>(max || size == 0 ? acc : static_cast<A>(acc / static_cast<A>(size)));
    }
}

// acc[i] = acc[i] + row[i] (or the max) over `pixels` rows `stride` floats apart. Cloned per vector width
// (baseline build).
QL_TARGET_CLONES("avx512f", "avx2", "default")
void accumulateRows(const float* in, float* acc, int64_t pixels, int64_t len, int64_t stride, bool max) {
    for (int64_t p = 0; p < pixels; ++p, in += stride) {
        if (max)
            for (int64_t i = 0; i < len; ++i) acc[i] = std::max(acc[i], in[i]);
        else
            for (int64_t i = 0; i < len; ++i) acc[i] = acc[i] + in[i];
    }
}

// Where channel c0 of an image's pixel 0 is, and how far apart its pixels are, in channels-last (block 1) or
// channel-blocked layout.
struct ChannelRows {
    int64_t channels, size, block;
    const float* start(const float* in, int64_t image, int64_t c0) const {
        if (block == 1) return in + image * size * channels + c0;
        const int64_t padded = (channels + block - 1) / block * block;
        return in + image * size * padded + c0 * size;
    }
    int64_t stride() const { return block == 1 ? channels : block; }
};

// Global pooling of a float N x C x H x W tensor in channels-last or channel-blocked layout into a plain
// N x C x 1 x 1 tensor, bit for bit what globalPool gives on the plain tensor. oneDNN's pooling reduces to one
// value per channel poorly.
Tensor poolInLayout(const Tensor& x, int64_t block, bool max) {
    const int64_t n = x.dim(0), c = x.dim(1), size = x.dim(2) * x.dim(3);
    const ChannelRows rows{c, size, block};
    // A group: the channels one row of the layout holds (all of them channels-last, else one block).
    const int64_t len = block == 1 ? c : block, groups = (c + len - 1) / len;
    Tensor y(DataType::Float, {n, c, 1, 1});
    const auto* in = static_cast<const float*>(x.rawData());
    float* out = y.data<float>();
    if (max) {  // a max is order-sensitive with NaN (std::max): every pixel in order, one piece per group
        parallelFor(n * groups, std::max<int64_t>(1, kElementwiseGrain / (size * len)), [&](int64_t b, int64_t e) {
            for (int64_t g = b; g < e; ++g) {
                const int64_t image = g / groups, c0 = g % groups * len, width = std::min(len, c - c0);
                const float* first = rows.start(in, image, c0);
                std::copy(first, first + width, out + image * c + c0);  // where globalPool starts from
                accumulateRows(first, out + image * c + c0, size, width, rows.stride(), true);
            }
        });
        return y;
    }
    // The sums of each run of kSumRun pixels per channel, in parallel over (image, group, run), then added.
    const int64_t runs = (size + kSumRun - 1) / kSumRun;
    std::vector<float> sums(static_cast<size_t>(n * runs * c), 0.0f);  // [image][run][channel]
    parallelFor(n * groups * runs, std::max<int64_t>(1, kElementwiseGrain / (kSumRun * len)),
                [&](int64_t b, int64_t e) {
                    for (int64_t piece = b; piece < e; ++piece) {
                        const int64_t run = piece % runs, g = piece / runs % groups, image = piece / runs / groups;
                        const int64_t c0 = g * len, width = std::min(len, c - c0), p0 = run * kSumRun;
                        const float* first = rows.start(in, image, c0) + p0 * rows.stride();
                        accumulateRows(first, sums.data() + (image * runs + run) * c + c0, std::min(kSumRun, size - p0),
                                       width, rows.stride(), false);
                    }
                });
    for (int64_t image = 0; image < n; ++image)
        for (int64_t k = 0; k < c; ++k) {
            float acc = 0.0f;
            for (int64_t run = 0; run < runs; ++run)
                acc = acc + sums[static_cast<size_t>((image * runs + run) * c + k)];
            out[image * c + k] = acc / static_cast<float>(size);
        }
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
    if (const int64_t block = onednn::channelBlock(x); block > 0 && x.dim(2) * x.dim(3) > 0) {
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
