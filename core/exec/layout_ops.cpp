#include "core/exec/layout_ops.h"

#include "core/common/target_clones.h"
#include "core/exec/onednn_util.h"

#include <string_view>

#include "core/exec/kernels/elementwise_util.h"

namespace ql {

bool hasLayoutInput(const KernelContext& ctx) {
    for (size_t i = 0; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i) && !ctx.input(i).isPlain()) return true;
    return false;
}

Status computeOnPlain(KernelContext& ctx, const std::function<Status(KernelContext&)>& plainCompute) {
    std::vector<Tensor> inputs(ctx.inputCount());
    std::vector<const Tensor*> pointers(ctx.inputCount(), nullptr);
    for (size_t i = 0; i < ctx.inputCount(); ++i) {
        if (!ctx.hasInput(i)) continue;
        inputs[i] = onednn::toPlain(ctx.input(i));
        pointers[i] = &inputs[i];
    }
    std::vector<Tensor> outputs(ctx.outputCount());
    KernelContext plain(ctx.node(), pointers, outputs, ctx.threads());
    QL_RETURN_IF_ERROR(plainCompute(plain));
    for (size_t o = 0; o < outputs.size(); ++o) ctx.setOutput(o, std::move(outputs[o]));
    return Status::ok();
}

Tensor poolRowsInLayout(const Tensor& x, int64_t block, const PoolWindow& window, const PoolRow& row) {
    using tag = dnnl::memory::format_tag;
    const int64_t n = x.dim(0), c = x.dim(1), inPlane = x.dim(2) * x.dim(3), oh = window.out[1], ow = window.out[2];
    const int64_t len = block == 1 ? c : block, groups = block == 1 ? 1 : (c + block - 1) / block;
    const tag layout = block == 1 ? tag::acdb : block == 16 ? tag::aBcd16b : tag::aBcd8b;
    Tensor y =
        onednn::allocateIn(dnnl::memory::desc({n, c, oh, ow}, dnnl::memory::data_type::f32, layout), {n, c, oh, ow});
    const auto* in = static_cast<const float*>(x.rawData());
    auto* out = static_cast<float*>(y.rawData());
    const int64_t work = ow * len * window.kernel[1] * window.kernel[2];  // per output row
    parallelFor(n * groups * oh, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, work)),
                [&](int64_t begin, int64_t end) {
                    for (int64_t r = begin; r < end; ++r) {
                        const int64_t plane = r / oh, o1 = r % oh;  // plane: (image, channel block)
                        row(in + plane * inPlane * len, out + (plane * oh + o1) * ow * len, o1, len);
                    }
                });
    return y;
}

Result<bool> poolLayoutInput(KernelContext& ctx, dnnl::algorithm op, const PoolWindow& window, bool keepLayout,
                             PoolCache& cache) {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float || x.rank() != 4 || x.elementCount() == 0) return false;
    try {
        ctx.setOutput(0, onednn::poolInLayout(op, x, window, keepLayout, cache));
    } catch (const dnnl::error& e) {
        return ctx.fail(std::string("oneDNN could not run this pooling: ") + e.what());
    }
    return true;
}

}  // namespace ql

namespace ql::onednn {

int64_t channelBlock(const dnnl::memory::desc& desc, const Shape& shape) {
    using tag = dnnl::memory::format_tag;
    if (shape.size() != 4) return -1;
    const dnnl::memory::dims dims(shape.begin(), shape.end());
    const auto dt = dnnl::memory::data_type::f32;
    if (desc == dnnl::memory::desc(dims, dt, tag::abcd)) return 0;
    if (desc == dnnl::memory::desc(dims, dt, tag::acdb)) return 1;
    if (desc == dnnl::memory::desc(dims, dt, tag::aBcd16b)) return 16;
    if (desc == dnnl::memory::desc(dims, dt, tag::aBcd8b)) return 8;
    return -1;
}

int64_t channelBlock(const Tensor& x) {
    return x.dtype() == DataType::Float ? channelBlock(descOf(x), x.shape()) : -1;
}

namespace {

// Output memory: in `like`'s layout when keeping layouts, else plain.
Tensor outputLike(const dnnl::memory::desc& like, const Shape& shape, bool keepLayout) {
    return keepLayout ? allocateIn(like, shape) : Tensor(DataType::Float, shape);
}

bool broadcastsTo(const Shape& b, const Shape& a) {
    if (a.size() != b.size()) return false;
    for (size_t d = 0; d < a.size(); ++d)
        if (b[d] != a[d] && b[d] != 1) return false;
    return true;
}

// A plain `b` of lower rank than `a` seen with leading 1s (numpy broadcasting), so oneDNN can broadcast it.
Tensor withRankOf(const Tensor& b, const Tensor& a) {
    if (!b.isPlain() || b.rank() >= a.rank()) return b;
    Shape shape(a.rank() - b.rank(), 1);
    shape.insert(shape.end(), b.shape().begin(), b.shape().end());
    return b.reshaped(shape);
}

// y = a * v or a + v over `rows` runs of `len` floats, with one value per run (`v[r]`, `perRow`) or one per
// position in the run (`v[i]`). Cloned per vector width: the library is built for baseline x86-64.
QL_TARGET_CLONES("avx512f", "avx2", "default")
void runRows(const float* a, float* y, int64_t rows, int64_t len, const float* v, bool perRow, bool add) {
    for (int64_t r = 0; r < rows; ++r, a += len, y += len) {
        if (perRow && add)
            for (int64_t i = 0; i < len; ++i) y[i] = a[i] + v[r];
        else if (perRow)
            for (int64_t i = 0; i < len; ++i) y[i] = a[i] * v[r];
        else if (add)
            for (int64_t i = 0; i < len; ++i) y[i] = a[i] + v[i];
        else
            for (int64_t i = 0; i < len; ++i) y[i] = a[i] * v[i];
    }
}

// a * g or a + g with `a` N x C x H x W (plain, channels-last or channel-blocked) and `g` one value per channel
// ([1, C, 1, 1]: a squeeze-excite gate, a per-channel shift), in one pass holding the channel's values in
// registers. oneDNN 2.6's binary broadcasts this at ~0.8 ns per value on channels-last data (EfficientNet-B0's
// first gate, 1x32x112x112: 0.32 ms) and scales poorly to 2 threads. The output is in a's layout, so only when
// it may stay in one (or a is plain); nullopt otherwise.
std::optional<Tensor> channelBinary(dnnl::algorithm op, const Tensor& a, const Tensor& g, bool keepLayout) {
    const bool add = op == dnnl::algorithm::binary_add;
    if ((!add && op != dnnl::algorithm::binary_mul) || a.rank() != 4 || g.rank() != 4) return std::nullopt;
    const int64_t n = a.dim(0), c = a.dim(1), hw = a.dim(2) * a.dim(3);
    if (g.shape() != Shape{1, c, 1, 1} || (!keepLayout && !a.isPlain())) return std::nullopt;
    const int64_t block = channelBlock(a);
    if (block < 0) return std::nullopt;
    const Tensor gate = toPlain(g);  // a 1x1 map is in channel order in any of these layouts
    const auto* gv = gate.data<float>();
    Tensor y = allocateIn(descOf(a), a.shape());
    const auto* av = static_cast<const float*>(a.rawData());
    auto* yv = static_cast<float*>(y.rawData());
    if (block == 0) {  // rows of H*W values, one channel each
        std::vector<float> perRow(static_cast<size_t>(n * c));
        for (int64_t r = 0; r < n * c; ++r) perRow[static_cast<size_t>(r)] = gv[r % c];
        parallelFor(n * c, std::max<int64_t>(1, kElementwiseGrain / hw), [&](int64_t begin, int64_t end) {
            runRows(av + begin * hw, yv + begin * hw, end - begin, hw, perRow.data() + begin, true, add);
        });
        return y;
    }
    // Rows of `len` channels: all C (channels-last) or one block of a padded channel count, H*W rows per block.
    const int64_t len = block == 1 ? c : block;
    const int64_t blocks = block == 1 ? 1 : (c + block - 1) / block;
    const int64_t rowsPerBlock = block == 1 ? n * hw : hw;
    std::vector<float> padded(static_cast<size_t>(blocks * len), 0.0f);  // 0 keeps padding channels 0
    std::copy(gv, gv + c, padded.begin());
    parallelFor(n * blocks * hw, std::max<int64_t>(1, kElementwiseGrain / len), [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end;) {  // one run of rows per channel block
            const int64_t stop = std::min(end, (r / rowsPerBlock + 1) * rowsPerBlock);
            const float* gate = padded.data() + (r / hw) % blocks * len;
            runRows(av + r * len, yv + r * len, stop - r, len, gate, false, add);
            r = stop;
        }
    });
    return y;
}

}  // namespace

std::optional<Tensor> binaryInLayout(dnnl::algorithm op, const Tensor& a, const Tensor& bGiven, bool keepLayout,
                                     BinaryCache& cache) {
    const Tensor b = withRankOf(bGiven, a);
    if (a.dtype() == DataType::Float && b.dtype() == DataType::Float)
        if (auto y = channelBinary(op, a, b, keepLayout)) return y;
    if (a.dtype() != DataType::Float || b.dtype() != DataType::Float || !broadcastsTo(b.shape(), a.shape()) ||
        a.elementCount() == 0)
        return std::nullopt;
    const auto aDesc = descOf(a), bDesc = descOf(b);
    Tensor y = outputLike(aDesc, a.shape(), keepLayout);
    const auto yDesc = descOf(y);
    auto& binary = cache.get({aDesc, bDesc, yDesc}, [&] {
        dnnl::binary::primitive_desc pd(dnnl::binary::desc(op, aDesc, bDesc, yDesc), engine());
        return BinaryPrimitive{dnnl::binary(pd), std::string_view(pd.impl_info_str()).starts_with("ref")};
    });
    // oneDNN's reference binary (a broadcast its JIT does not cover) is slower than our own loops on plain data.
    if (a.isPlain() && b.isPlain() && binary.reference) return std::nullopt;
    // Its JIT wants both operands in one layout: a same-shaped operand in another one (channels-last next to
    // channel-blocked) is reordered first, ~30x cheaper than the reference binary's per-element offsets.
    if (binary.reference && b.shape() == a.shape() && bDesc != aDesc)
        return binaryInLayout(op, a, convertTo(b, aDesc), keepLayout, cache);
    binary.primitive.execute(
        stream(), {{DNNL_ARG_SRC_0, memoryOf(a)}, {DNNL_ARG_SRC_1, memoryOf(b)}, {DNNL_ARG_DST, memoryOf(y)}});
    stream().wait();
    return y;
}

Tensor poolInLayout(dnnl::algorithm op, const Tensor& x, const PoolWindow& w, bool keepLayout, PoolCache& cache) {
    const auto xDesc = descOf(x);
    auto& pool = cache.get({xDesc}, [&] {
        dnnl::memory::dims strides, kernel, dilation, padL, padR;
        for (size_t a = kPoolAxes - 2; a < kPoolAxes; ++a) {
            strides.push_back(w.stride[a]);
            kernel.push_back(w.kernel[a]);
            dilation.push_back(w.dilation[a] - 1);  // oneDNN counts dilation from 0
            padL.push_back(w.padBegin[a]);
            // Whatever the output size needs past the input (ceil_mode), as oneDNN derives the size from pads.
            padR.push_back((w.out[a] - 1) * w.stride[a] + (w.kernel[a] - 1) * w.dilation[a] + 1 - w.in[a] -
                           w.padBegin[a]);
        }
        // Asking for a plain output from a blocked input would select oneDNN's slow reference pooling.
        dnnl::pooling_v2_forward::primitive_desc pd(
            dnnl::pooling_v2_forward::desc(dnnl::prop_kind::forward_inference, op, xDesc, anyDesc(w.outputShape),
                                           strides, kernel, dilation, padL, padR),
            engine());
        return PoolPrimitive{dnnl::pooling_v2_forward(pd), pd.dst_desc()};
    });
    Tensor y = allocateIn(pool.dst, w.outputShape);
    pool.primitive.execute(stream(), {{DNNL_ARG_SRC, memoryOf(x)}, {DNNL_ARG_DST, memoryOf(y)}});
    stream().wait();
    return keepLayout ? y : toPlain(y);
}

}  // namespace ql::onednn
