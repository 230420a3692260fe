#include "core/quant/channel_range_observer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/target_clones.h"
#include "core/exec/layout.h"
#include "core/exec/layout_ops.h"
#include "core/model/op_roles.h"

namespace ql {
namespace {

constexpr float kLargest = std::numeric_limits<float>::max();

// |x|, or 0 for NaN and Inf: branch-free, so the loops below vectorise.
inline float finiteMagnitude(float x) {
    const float a = std::fabs(x);
    return a <= kLargest ? a : 0.0f;
}

// amax[c] = max(amax[c], |x|) over `runs` runs of `inner` contiguous values, run r of channel r % channels (a plain
// tensor whose channel axis is not the last). `omp simd reduction` lets the compiler vectorise the max of a run
// (a plain running max is a reduction it may not reorder).
QL_TARGET_CLONES("avx512f", "avx2", "default")
void maxOverRuns(const float* __restrict x, int64_t runs, int64_t channels, int64_t inner, float* __restrict amax) {
    for (int64_t r = 0, c = 0; r < runs; ++r, x += inner, c = c + 1 == channels ? 0 : c + 1) {
        float m = amax[c];
#pragma omp simd reduction(max : m)
        for (int64_t i = 0; i < inner; ++i) m = std::max(m, finiteMagnitude(x[i]));
        amax[c] = m;
    }
}

// amax[j] = max(amax[j], |row[j]|) over `rows` contiguous rows of `length` values: the channels are the fastest
// axis (a plain tensor over its last axis, or channels-last).
QL_TARGET_CLONES("avx512f", "avx2", "default")
void maxOverRows(const float* __restrict x, int64_t rows, int64_t length, float* __restrict amax) {
    for (int64_t r = 0; r < rows; ++r, x += length)
        for (int64_t j = 0; j < length; ++j) {
            const float a = finiteMagnitude(x[j]);
            amax[j] = a > amax[j] ? a : amax[j];
        }
}

// One channel block of a blocked layout: `rows` rows of kBlock channels, kept in registers over the rows.
template <int64_t kBlock>
void maxOverBlockRows(const float* __restrict x, int64_t rows, float* __restrict amax) {
    float acc[kBlock];
    for (int64_t j = 0; j < kBlock; ++j) acc[j] = amax[j];
    for (int64_t r = 0; r < rows; ++r, x += kBlock)
#pragma omp simd
        for (int64_t j = 0; j < kBlock; ++j) acc[j] = std::max(acc[j], finiteMagnitude(x[j]));
    for (int64_t j = 0; j < kBlock; ++j) amax[j] = acc[j];
}

QL_TARGET_CLONES("avx512f", "avx2", "default")
void maxOverBlocks(const float* x, int64_t images, int64_t blocks, int64_t plane, int64_t block, float* amax) {
    for (int64_t n = 0; n < images; ++n)
        for (int64_t b = 0; b < blocks; ++b, x += plane * block) {
            if (block == 16)
                maxOverBlockRows<16>(x, plane, amax + b * 16);
            else if (block == 8)
                maxOverBlockRows<8>(x, plane, amax + b * 8);
            else
                maxOverRows(x, plane, block, amax + b * block);
        }
}

// The plain row-major case, channel axis `axis`.
void observePlain(const float* x, const Shape& shape, int64_t axis, float* amax) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= shape[static_cast<size_t>(d)];
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
    const int64_t channels = shape[static_cast<size_t>(axis)];
    if (inner == 1)
        maxOverRows(x, outer, channels, amax);
    else
        maxOverRuns(x, outer * channels, channels, inner, amax);
}

bool isFloating(DataType d) {
    return d == DataType::Float || d == DataType::Float16 || d == DataType::BFloat16 || d == DataType::Double;
}

// The consumer-side axis of `value` read as input `slot` of `node`, if that node reduces over its channels.
std::optional<int64_t> consumedAxis(const Node& node, size_t slot) {
    if (!isDefaultDomain(node)) return std::nullopt;
    if ((node.opType == "Conv" || node.opType == "ConvTranspose") && slot == 0) return 1;
    if (node.opType == "MatMul") return slot == 0 ? -1 : -2;
    if (node.opType == "Gemm" && slot == 0) return node.intAttribute("transA", 0) != 0 ? 0 : 1;
    return std::nullopt;
}

}  // namespace

const std::vector<float> ChannelRangeObserver::kNone;

std::optional<int64_t> activationChannelAxis(const Graph& graph, ValueId value) {
    const Value& v = graph.value(value);
    if (v.type.hasShape && v.type.dims.size() < 2) return std::nullopt;
    for (NodeId c : v.consumers) {
        const Node& node = graph.node(c);
        for (size_t slot = 0; slot < node.inputs.size(); ++slot)
            if (node.inputs[slot] == value)
                if (const std::optional<int64_t> axis = consumedAxis(node, slot)) return axis;
    }
    if (v.producer != kNoId) {
        const Node& producer = graph.node(v.producer);
        if (isDefaultDomain(producer) && (producer.opType == "MatMul" || producer.opType == "Gemm")) return -1;
    }
    return 1;
}

void ChannelRangeObserver::reset() {
    *this = ChannelRangeObserver(mAxisSpec);
}

bool ChannelRangeObserver::accept(const Tensor& tensor) {
    const auto rank = static_cast<int64_t>(tensor.rank());
    const int64_t axis = mAxisSpec < 0 ? rank + mAxisSpec : mAxisSpec;
    if (rank < 2 || axis < 0 || axis >= rank) return false;
    const int64_t channels = tensor.dim(static_cast<size_t>(axis));
    if (channels > kMaxChannels || channels < 1) return false;
    if (mChannels == 0) {
        mAxis = axis;
        mChannels = channels;
    }
    return axis == mAxis && channels == mChannels;
}

void ChannelRangeObserver::observe(const Tensor& tensor) {
    if (mStopped || !isFloating(tensor.dtype())) return;
    if (!accept(tensor)) {
        mStopped = true;
        mAmax.clear();
        return;
    }
    if (tensor.elementCount() == 0) return;
    const auto channels = static_cast<size_t>(mChannels);
    if (mAmax.size() < channels) mAmax.resize(channels, 0.0f);
    if (tensor.dtype() != DataType::Float) {
        const std::vector<float> values = tensor.toFloats();
        observePlain(values.data(), tensor.shape(), mAxis, mAmax.data());
    } else if (tensor.isPlain()) {
        observePlain(tensor.data<float>(), tensor.shape(), mAxis, mAmax.data());
    } else {
        // A oneDNN layout, read in place where its channels are the fastest axis or come in blocks of it.
        const int64_t block = mAxis == 1 ? onednn::channelBlock(tensor) : -1;
        const float* x = tensor.data<float>();
        const Shape& s = tensor.shape();
        if (block == 0) {  // row-major after all
            observePlain(x, s, mAxis, mAmax.data());
        } else if (block == 1) {  // channels-last: rows of C over N x H x W
            maxOverRows(x, s[0] * s[2] * s[3], mChannels, mAmax.data());
        } else if (block > 1) {  // [N][C/block][H][W][block], the last block padded
            const int64_t blocks = (mChannels + block - 1) / block, plane = s[2] * s[3];
            if (mAmax.size() < static_cast<size_t>(blocks * block)) mAmax.resize(static_cast<size_t>(blocks * block));
            maxOverBlocks(x, s[0], blocks, plane, block, mAmax.data());
        } else {
            const Tensor plain = onednn::toPlain(tensor);
            observePlain(plain.data<float>(), s, mAxis, mAmax.data());
        }
    }
    mAmax.resize(channels);  // the padding of a blocked layout holds zeros, not channels
}

}  // namespace ql
