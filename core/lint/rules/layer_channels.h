#pragma once
// A weighted layer's channel counts as TensorRT's INT8 kernels see them: per group, with the image channels of a first
// layer left out. trt-int8-channel-alignment and trt-int8-small-layer read them through this one function, so the two
// rules never disagree about a layer.
#include <optional>

#include "core/lint/lint_context.h"

namespace ql::rules {

struct LayerChannels {
    int64_t c = -1;  // input channels per group; a MatMul/Gemm's reduction size K
    int64_t k = -1;  // output channels per group; a MatMul/Gemm's columns N
    int64_t group = 1;
    // The layer reads a model input, or is a first layer of 1 to 4 input channels (RGB, RGBA, RGB + depth through
    // preprocessing): TensorRT pads those to one group of 4 (INT8 CHW4) and NVIDIA quantizes the layer anyway, so
    // its C is not checked. Worked out only where C is not a multiple of 16 (the only case a rule asks about).
    bool imageInput = false;

    // Whether C counts: known, and not a first layer's image channels.
    bool checksC() const { return c >= 0 && !imageInput; }
    // Fewer than kInt8MinChannels on a side (C, where it counts, or K).
    bool small() const;
};

// The one size threshold of both rules, Model Optimizer's: a layer with fewer channels (per group) on its input or
// output side is too small for INT8 to pay off. Group-1 layers under it are trt-int8-channel-alignment's (a count
// under 16 is never a multiple of 16), grouped ones trt-int8-small-layer's.
constexpr int64_t kInt8MinChannels = 16;

// Conv, ConvTranspose, Gemm and MatMul with a constant (or computed-from-constants) second operand; nullopt for other
// nodes, for attention's batched products (two computed tensors: sequence lengths and head sizes, no channels), and
// where the weight's rank is unknown.
std::optional<LayerChannels> layerChannels(const LintContext& context, const Node& node);

// The layer's output reaches a model output with no weighted layer in between (a classifier's or detector's head): its
// output channel count is the task's (classes, box coordinates), not an architecture choice.
bool computesModelOutput(const LintContext& context, const Node& node);

// A MatMul/Gemm whose output has a single row or column (M = 1 or N = 1): trt-int8-gemv's finding, by the M and N that
// int8_gemv.cpp reads.
bool isMatrixVectorProduct(const LintContext& context, const Node& node);

}  // namespace ql::rules
