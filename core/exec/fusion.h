#pragma once
// The executor's fusion pass: a Conv (after a per-channel gating Mul, see FusionGroup::inputGate) followed by
// activations (Relu, LeakyRelu, Clip, HardSigmoid, Sigmoid, Tanh, Elu, HardSwish, and the x*Sigmoid(x) /
// x*HardSigmoid(x) patterns of SiLU / HardSwish) and an Add of another tensor of the same shape runs as one oneDNN
// convolution with post-ops. A node is folded in only when the tensor it reads has no other consumer and is not a graph
// output; the executor still runs a group node by node when a run's observer wants one of the group's hidden tensors,
// or when an interceptor is set.
#include <optional>
#include <vector>

#include "core/exec/kernels/onednn_layer.h"
#include "core/model/graph.h"

namespace ql {

struct FusionGroup {
    NodeId anchor = kNoId;        // the Conv (the BatchNormalization of findNormReluFusions)
    std::vector<NodeId> fused;    // the nodes folded into it, in graph order (a gating Mul precedes the anchor)
    std::vector<PostOp> postOps;  // in order of application
    ValueId sumOperand = kNoId;   // the fused Add's other input (given to the Conv as input 3), or kNoId
    ValueId output = kNoId;       // the value the group produces: the last fused node's output
    std::vector<ValueId> hidden;  // intermediate values that are never materialised
    // Mul(gatedInput, inputGate) -> Conv with a per-channel gate (squeeze-excite): the Conv reads gatedInput
    // and scales its weights' input channels by the gate where that is cheaper than the pass over the tensor
    // (ConvKernel, input kConvGateInput). gatedProduct, the Mul's output, is in `hidden`; TensorRT quantizes
    // it (a Conv input), so calibration counts it on every sample.
    ValueId gatedInput = kNoId, inputGate = kNoId, gatedProduct = kNoId;
};

std::vector<FusionGroup> findConvFusions(const Graph& graph);

// Inference-mode BatchNormalization followed by a Relu that alone reads its output (DenseNet's BN-ReLU-Conv
// layers, after a Concat): run as one oneDNN batch normalization with its fused ReLU, one pass instead of two.
// For the executor only: unlike a convolution's groups, TensorRT keeps these tensors, so calibration counts
// them on every sample (a run observing the BN output splits the group). Nodes in `taken` groups are skipped.
std::vector<FusionGroup> findNormReluFusions(const Graph& graph, const std::vector<FusionGroup>& taken);

// A chain of float elementwise nodes each reading the one before (only it reads that) and, beside it, nothing
// but a scalar constant or the chain's input x: GELU's Div -> Erf -> Add -> Mul(x) -> Mul. One pass over x
// instead of one per node (ElementwiseChainKernel); `nodes` in graph order, `hidden` their outputs but the last.
struct ElementwiseChain {
    ValueId input = kNoId, output = kNoId;
    std::vector<NodeId> nodes;
    std::vector<ValueId> hidden;
};
// Chains of at least two Add, Sub, Mul, Div or Erf nodes, none of them in `taken` groups.
std::vector<ElementwiseChain> findElementwiseChains(const Graph& graph, const std::vector<FusionGroup>& taken);

// The oneDNN eltwise chain computing a single-input activation node (Relu, LeakyRelu, Clip with constant
// bounds, HardSigmoid, Sigmoid, Tanh, Elu, HardSwish), or nullopt when `node` is not one.
std::optional<std::vector<PostOp>> activationPostOps(const Graph& graph, const Node& node);

}  // namespace ql
