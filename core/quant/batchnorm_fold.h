#pragma once
// BatchNormalization folding, as the export does it (core/export/batchnorm_folding.h), for the INT8 placement
// and simulation on the unfolded model: the export quantizes the folded weight W' = W * s (s per output
// channel), so the placement computes the weight scales from W' and the simulation quantizes W' and divides
// by s again (the BatchNormalization still runs after the layer). The arithmetic here is the export's own.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

// y = x * scale + shift per channel: scale = gamma / sqrt(var + epsilon), shift = beta - mean * scale.
struct ChannelAffine {
    std::vector<float> scale;
    std::vector<float> shift;
};
// `params`: gamma, beta, mean, var; an error when their lengths differ.
Result<ChannelAffine> batchNormAffine(const std::vector<std::vector<float>>& params, float epsilon);

// Maps a flat weight index to the output channel it feeds (Conv [M, C/g, k...], ConvTranspose [C, M/g, k...]
// with groups, Gemm [K, N] or transB [N, K]); `channels` is the layer's output channel count.
struct OutputChannelLayout {
    int64_t channels = 0;
    std::function<int64_t(int64_t)> channelOf;
};
Result<OutputChannelLayout> outputChannelLayout(const std::string& op, const std::vector<int64_t>& dims, int64_t group,
                                                bool transB);

// The BatchNormalization the export folds into weighted layer `node`, with its per-channel factor s; nullopt
// when the export keeps it (the same conditions as foldBatchNorms: inference mode, spatial, constant float
// parameters, the layer's output read by the BatchNormalization alone, weight and bias float initializers the
// layer alone reads, matching channel counts).
struct FoldedBatchNorm {
    NodeId batchNorm = kNoId;
    std::vector<float> factor;  // per output channel
};
std::optional<FoldedBatchNorm> foldedBatchNorm(const Graph& graph, const Node& node);
// The layer whose FoldedBatchNorm is `bn`, or kNoId.
NodeId layerFoldingBatchNorm(const Graph& graph, const Node& bn);

// Each weight element times (or divided by, when `divide`) its output channel's factor; a zero factor gives 0.
Tensor scaleByOutputChannel(const Tensor& weight, const Node& node, const std::vector<float>& factor, bool divide);

}  // namespace ql
