#pragma once
// The largest |x| per channel of one activation over many batches: what the calibration diagnosis compares to find
// a few channels whose range dwarfs the others' under one per-tensor INT8 scale (calibration_diagnosis.h). One pass
// over each tensor, in place: a plain tensor, or one in a oneDNN layout (channels-last, or 8/16-channel blocks)
// read as it is stored. Non-finite values are skipped (HistogramObserver counts them). Memory is one float per
// channel, and tensors with more than kMaxChannels channels are not measured.
//
// The channel axis of an activation (activationChannelAxis) is the one its quantized consumer reduces over, where a
// per-channel range would matter:
//   an input of Conv / ConvTranspose: axis 1 (NCHW input channels)
//   input A of MatMul: the last axis (K; [B, T, C] transformer activations: C); of Gemm: 1, or 0 with transA
//   input B of MatMul (an activation, as in attention): the second-to-last axis (K)
// With no such consumer, the producer decides (a Conv's output: axis 1; a MatMul's or Gemm's: the last), else the
// rank: axis 1 (NCHW, or the features of [N, C]). Tensors of rank < 2 have no channels.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

// The channel axis of `value` as above, counted from the end when negative (-1: the last axis), resolved against
// the rank of each tensor observed; nullopt when its rank is known and below 2.
std::optional<int64_t> activationChannelAxis(const Graph& graph, ValueId value);

class ChannelRangeObserver {
public:
    static constexpr int64_t kMaxChannels = 4096;

    explicit ChannelRangeObserver(int64_t axis) : mAxisSpec(axis) {}
    // Float, Float16, BFloat16 and Double tensors; others are ignored. A tensor whose rank has no such axis, with
    // more than kMaxChannels channels, or whose channel count differs from the batches before stops the
    // measurement (amax() empty from then on).
    void observe(const Tensor& tensor);
    void reset();
    // The axis resolved against the tensors' rank; meaningful while amax() is not empty.
    int64_t axis() const { return mAxis; }
    // max |x| per channel (0 for a channel that held only zeros); empty when nothing could be measured.
    const std::vector<float>& amax() const { return mStopped ? kNone : mAmax; }

private:
    bool accept(const Tensor& tensor);

    static const std::vector<float> kNone;
    int64_t mAxisSpec = 1;
    int64_t mAxis = -1;
    std::vector<float> mAmax;  // padded to a whole number of blocks while a blocked layout is read
    int64_t mChannels = 0;
    bool mStopped = false;
};

}  // namespace ql
