#pragma once
// Scaled dot-product attention as exporters write it: BMM1 (Q x K^T, a MatMul or Einsum of two computed tensors),
// then scale and mask ops, a Softmax, and BMM2 (probabilities x V). TensorRT fuses such a subgraph into one MHA
// kernel under conditions the lint rules check (TensorRT "Fused Attention"; NVIDIA/TensorRT#3243, #4537), and
// NVIDIA's quantizer places Q/DQ around it by its sequence length, which the default placement follows.
#include <cstdint>
#include <vector>

#include "core/model/graph.h"

namespace ql {

struct AttentionPattern {
    NodeId scores = kNoId;   // BMM1
    NodeId softmax = kNoId;  // the normalization
    NodeId context = kNoId;  // BMM2 (kNoId when the probabilities reach no batched MatMul)
    // Nodes between BMM1 and the Softmax (scale, mask, Cast, Q/DQ), and between the Softmax and BMM2, in order.
    std::vector<NodeId> beforeSoftmax;
    std::vector<NodeId> afterSoftmax;
    // Sizes read from the inferred shapes; -1 when unknown.
    int64_t queryLength = -1;  // S_q: rows of the scores
    int64_t keyLength = -1;    // S_kv: the softmax axis
    int64_t headSize = -1;     // H: the last dim of Q
};

// Every Softmax fed, through at most a few scale/mask/cast/quantize ops, by a batched MatMul or Einsum of two
// computed tensors (neither a weight): one pattern each, in graph order.
std::vector<AttentionPattern> findAttentionPatterns(const Graph& graph);

// A value computed at run time: not an initializer, not a Constant, not a DequantizeLinear of one (a weight), and
// not computed from constants alone (a scale written as Pow(64, -0.5)).
bool isComputedValue(const Graph& graph, ValueId value);

}  // namespace ql
