#include "core/exec/kernels/rotary_embedding.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

namespace {

// Where element d of head h at (b, s) lives in X, in its 4-D or 3-D layout.
struct HeadLayout {
    int64_t batch, heads, seq, headSize;
    bool fourD;
    int64_t offset(int64_t b, int64_t s, int64_t h) const {
        return fourD ? ((b * heads + h) * seq + s) * headSize : ((b * seq + s) * heads + h) * headSize;
    }
};

}  // namespace

Status RotaryEmbeddingKernel::init(const KernelInit& info) {
    mInterleaved = info.node.intAttribute("interleaved", 0) != 0;
    mRotaryDim = info.node.intAttribute("rotary_embedding_dim", 0);
    mHeads = info.node.intAttribute("num_heads", 0);
    return Status::ok();
}

Status RotaryEmbeddingKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || !ctx.hasInput(2))
        return ctx.fail("needs inputs X, cos_cache and sin_cache");
    const Tensor& x = ctx.input(0);
    if (x.rank() != 4 && !(x.rank() == 3 && mHeads > 0 && x.dim(2) % mHeads == 0))
        return ctx.fail(
            "X must be [batch, heads, seq, head_size], or [batch, seq, hidden] with num_heads dividing hidden");
    const bool fourD = x.rank() == 4;
    const HeadLayout l{x.dim(0), fourD ? x.dim(1) : mHeads, fourD ? x.dim(2) : x.dim(1),
                       fourD ? x.dim(3) : x.dim(2) / mHeads, fourD};
    const int64_t dim = mRotaryDim > 0 ? mRotaryDim : l.headSize, half = dim / 2;
    if (dim > l.headSize || dim % 2 != 0)
        return ctx.fail("rotary_embedding_dim must be even and at most the head size");
    const std::vector<float> in = x.toFloats(), cosines = ctx.input(1).toFloats(), sines = ctx.input(2).toFloats();
    std::vector<int64_t> positions;
    if (ctx.hasInput(3)) {
        QL_ASSIGN_OR_RETURN(positions, readInt64Input(ctx, 3));
        if (static_cast<int64_t>(positions.size()) != l.batch * l.seq)
            return ctx.fail("position_ids must be [batch, seq]");
    }
    const int64_t rows = static_cast<int64_t>(cosines.size()) / std::max<int64_t>(1, half);
    if (ctx.input(1).dim(ctx.input(1).rank() - 1) != half || sines.size() != cosines.size())
        return ctx.fail("cos_cache and sin_cache must end in rotary_embedding_dim / 2 = " + std::to_string(half) +
                        " values");
    std::vector<double> out(in.begin(), in.end());
    for (int64_t b = 0; b < l.batch; ++b)
        for (int64_t s = 0; s < l.seq; ++s) {
            const int64_t row = positions.empty() ? b * l.seq + s : positions[static_cast<size_t>(b * l.seq + s)];
            if (row < 0 || row >= rows) return ctx.fail("position " + std::to_string(row) + " is outside the caches");
            const float* c = cosines.data() + row * half;
            const float* sn = sines.data() + row * half;
            for (int64_t h = 0; h < l.heads; ++h) {
                const int64_t base = l.offset(b, s, h);
                for (int64_t i = 0; i < half; ++i) {
                    const int64_t first = base + (mInterleaved ? 2 * i : i),
                                  second = base + (mInterleaved ? 2 * i + 1 : i + half);
                    const float x1 = in[static_cast<size_t>(first)], x2 = in[static_cast<size_t>(second)];
                    out[static_cast<size_t>(first)] = c[i] * x1 - sn[i] * x2;
                    out[static_cast<size_t>(second)] = sn[i] * x1 + c[i] * x2;
                }
            }
        }
    ctx.setOutput(0, floatingTensor(x.dtype(), x.shape(), out));
    return Status::ok();
}

}  // namespace ql
