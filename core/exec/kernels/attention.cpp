#include "core/exec/kernels/attention.h"

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/loss_util.h"

namespace ql {

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
enum Input : size_t { kQ = 0, kK, kV, kMask, kPastKey, kPastValue, kNonPadLength };
constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// A Q, K or V input as [batch, heads, seq, head_size] floats: 4-D as given, 3-D split into `heads` and transposed.
Result<std::vector<float>> headsFirst(const KernelContext& ctx, size_t input, int64_t heads, Shape& shape) {
    const Tensor& t = ctx.input(input);
    std::vector<float> values = t.toFloats();
    if (t.rank() == 4) {
        shape = t.shape();
        return values;
    }
    if (t.rank() != 3 || heads <= 0 || t.dim(2) % heads != 0)
        return ctx.fail("a 3-D Q, K or V needs q_num_heads / kv_num_heads dividing its last axis");
    const int64_t b = t.dim(0), s = t.dim(1), d = t.dim(2) / heads;
    shape = {b, heads, s, d};
    std::vector<float> out(values.size());
    const int64_t perm[] = {0, 2, 1, 3};
    permuteCopy(reinterpret_cast<const std::byte*>(values.data()), {b, s, heads, d}, perm,
                reinterpret_cast<std::byte*>(out.data()), sizeof(float));
    return out;
}

// K or V with its past (same layout) in front along the sequence axis.
std::vector<float> withPast(const std::vector<float>& past, const Shape& pastShape, const std::vector<float>& now,
                            Shape& shape) {
    if (past.empty()) return now;
    const int64_t rows = shape[0] * shape[1], pastSeq = pastShape[2], seq = shape[2], d = shape[3];
    std::vector<float> out;
    out.reserve(past.size() + now.size());
    for (int64_t r = 0; r < rows; ++r) {
        out.insert(out.end(), past.begin() + r * pastSeq * d, past.begin() + (r + 1) * pastSeq * d);
        out.insert(out.end(), now.begin() + r * seq * d, now.begin() + (r + 1) * seq * d);
    }
    shape[2] = pastSeq + seq;
    return out;
}

// The additive bias of the mask at (b, h, i, j) for a mask of `shape` right-aligned to [B, H, Sq, T].
struct MaskView {
    std::vector<float> values;
    Shape shape;  // padded to rank 4 with leading 1s
    bool boolean = false;
    std::vector<int64_t> validKeys;  // opset 24's nonpad_kv_seqlen: per batch entry, keys past it are masked
    float at(int64_t b, int64_t h, int64_t i, int64_t j) const {
        if (!validKeys.empty() && j >= validKeys[static_cast<size_t>(b)]) return kMinusInfinity;
        if (values.empty()) return 0.0f;
        if (j >= shape[3]) return kMinusInfinity;
        const int64_t c[] = {b, h, i, j};
        int64_t index = 0;
        for (size_t d = 0; d < 4; ++d) index = index * shape[d] + (shape[d] == 1 ? 0 : c[d]);
        const float v = values[static_cast<size_t>(index)];
        return boolean ? (v != 0.0f ? 0.0f : kMinusInfinity) : v;
    }
};

// Sizes and options of one Attention computation.
struct Problem {
    int64_t batch, qHeads, kvHeads, qSeq, total, d, dv;
    float scale, softcap;
    int64_t qkMode;
    bool causal;
};

struct Operands {
    const std::vector<float>&q, &k, &v;  // [batch, heads, seq, size]
};

// Query head h of batch entry b: scores, bias, softcap, softmax and the weighted values (into y), and the
// qk_matmul_output the mode asks for (into qk).
void attendHead(const Problem& p, int64_t b, int64_t h, const Operands& in, const MaskView& mask,
                std::vector<double>& y, std::vector<double>& qk) {
    const int64_t kvh = h / (p.qHeads / p.kvHeads), head = b * p.qHeads + h;
    const Eigen::Map<const Matrix> qm(in.q.data() + head * p.qSeq * p.d, p.qSeq, p.d);
    const Eigen::Map<const Matrix> km(in.k.data() + (b * p.kvHeads + kvh) * p.total * p.d, p.total, p.d);
    const Eigen::Map<const Matrix> vm(in.v.data() + (b * p.kvHeads + kvh) * p.total * p.dv, p.total, p.dv);
    Matrix scores = (qm * km.transpose()) * p.scale;
    for (int64_t i = 0; i < p.qSeq; ++i)
        for (int64_t j = 0; j < p.total; ++j) {
            float& s = scores(i, j);
            const float raw = s;
            s += mask.at(b, h, i, j) + (p.causal && j > i ? kMinusInfinity : 0.0f);
            const float biased = s;
            if (p.softcap > 0.0f) s = p.softcap * std::tanh(s / p.softcap);
            const float kept[] = {raw, biased, s};
            if (p.qkMode < 3) qk[static_cast<size_t>((head * p.qSeq + i) * p.total + j)] = kept[p.qkMode];
        }
    for (int64_t i = 0; i < p.qSeq; ++i) {
        auto row = scores.row(i).array();
        row = (row - row.maxCoeff()).exp();
        row /= row.sum();
    }
    if (p.qkMode == 3)
        for (int64_t i = 0; i < p.qSeq * p.total; ++i)
            qk[static_cast<size_t>(head * p.qSeq * p.total + i)] = scores.data()[i];
    const Matrix out = scores * vm;
    for (int64_t i = 0; i < p.qSeq * p.dv; ++i) y[static_cast<size_t>(head * p.qSeq * p.dv + i)] = out.data()[i];
}

}  // namespace

Status AttentionKernel::init(const KernelInit& info) {
    mCausal = info.node.intAttribute("is_causal", 0) != 0;
    mQHeads = info.node.intAttribute("q_num_heads", 0);
    mKvHeads = info.node.intAttribute("kv_num_heads", 0);
    mQkMode = info.node.intAttribute("qk_matmul_output_mode", 0);
    mScale = info.node.floatAttribute("scale", 0.0f);
    mSoftcap = info.node.floatAttribute("softcap", 0.0f);
    if (mQkMode < 0 || mQkMode > 3) return info.fail("qk_matmul_output_mode must be 0 to 3");
    return Status::ok();
}

Status AttentionKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(kQ) || !ctx.hasInput(kK) || !ctx.hasInput(kV)) return ctx.fail("needs inputs Q, K and V");
    const bool threeD = ctx.input(kQ).rank() == 3;
    Shape qs, ks, vs;
    QL_ASSIGN_OR_RETURN(const std::vector<float> q, headsFirst(ctx, kQ, mQHeads, qs));
    QL_ASSIGN_OR_RETURN(std::vector<float> k, headsFirst(ctx, kK, mKvHeads, ks));
    QL_ASSIGN_OR_RETURN(std::vector<float> v, headsFirst(ctx, kV, mKvHeads, vs));
    if (ks[0] != qs[0] || vs[0] != qs[0] || ks[1] != vs[1] || ks[2] != vs[2] || ks[3] != qs[3] || qs[1] % ks[1] != 0)
        return ctx.fail("Q " + shapeString(qs) + ", K " + shapeString(ks) + " and V " + shapeString(vs) +
                        " do not fit: batch and head_size must agree and q heads be a multiple of kv heads");
    if (ctx.hasInput(kPastKey) != ctx.hasInput(kPastValue)) return ctx.fail("past_key and past_value go together");
    if (ctx.hasInput(kPastKey)) {
        const Tensor &pk = ctx.input(kPastKey), &pv = ctx.input(kPastValue);
        if (pk.rank() != 4 || pk.dim(0) != ks[0] || pk.dim(1) != ks[1] || pk.dim(3) != ks[3] || pv.rank() != 4 ||
            pv.dim(2) != pk.dim(2) || pv.dim(3) != vs[3])
            return ctx.fail("past_key / past_value must be [batch, kv_heads, past_seq, head_size]");
        k = withPast(pk.toFloats(), pk.shape(), k, ks);
        v = withPast(pv.toFloats(), pv.shape(), v, vs);
    }
    const int64_t batch = qs[0], qHeads = qs[1], qSeq = qs[2], d = qs[3], kvHeads = ks[1], total = ks[2], dv = vs[3];
    MaskView mask;
    if (ctx.hasInput(kMask)) {
        const Tensor& m = ctx.input(kMask);
        if (m.rank() > 4) return ctx.fail("attn_mask has more than 4 axes");
        mask.values = m.toFloats();
        mask.boolean = m.dtype() == DataType::Bool;
        mask.shape = m.shape();
        mask.shape.insert(mask.shape.begin(), 4 - m.rank(), 1);
    }
    if (ctx.hasInput(kNonPadLength)) {
        QL_ASSIGN_OR_RETURN(mask.validKeys, readInt64Input(ctx, kNonPadLength));
        if (static_cast<int64_t>(mask.validKeys.size()) != batch)
            return ctx.fail("nonpad_kv_seqlen needs one length per batch entry");
    }
    const float scale = mScale != 0.0f ? mScale : 1.0f / std::sqrt(static_cast<float>(d));
    const Problem p{batch, qHeads, kvHeads, qSeq, total, d, dv, scale, mSoftcap, mQkMode, mCausal};
    std::vector<double> y(static_cast<size_t>(batch * qHeads * qSeq * dv)),
        qk(static_cast<size_t>(batch * qHeads * qSeq * total));
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t h = 0; h < qHeads; ++h) attendHead(p, b, h, {q, k, v}, mask, y, qk);
    const DataType dtype = ctx.input(kQ).dtype();
    Tensor yt = floatingTensor(dtype, {batch, qHeads, qSeq, dv}, y);
    if (threeD) {
        Tensor flat(dtype, {batch, qSeq, qHeads * dv});
        const int64_t perm[] = {0, 2, 1, 3};
        permuteCopy(bytesOf(yt), yt.shape(), perm, bytesOf(flat), dataTypeSize(dtype));
        yt = std::move(flat);
    }
    ctx.setOutput(0, std::move(yt));
    if (ctx.outputCount() > 1) ctx.setOutput(1, floatingTensor(dtype, ks, {k.begin(), k.end()}));
    if (ctx.outputCount() > 2) ctx.setOutput(2, floatingTensor(dtype, vs, {v.begin(), v.end()}));
    if (ctx.outputCount() > 3) ctx.setOutput(3, floatingTensor(dtype, {batch, qHeads, qSeq, total}, qk));
    return Status::ok();
}

}  // namespace ql
