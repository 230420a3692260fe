#pragma once
// The default requested precisions: INT8 where TensorRT runs INT8 once Q/DQ pairs are placed as NVIDIA's
// tools place them; every other node that computes a float tensor FP16 ("higher precision, TensorRT's choice",
// ModelOpt's default high_precision_dtype fp16: nothing pinned FP32 unless the user or a guard (fp16_guard.h)
// says so); FP32 for the rest (shape and index nodes, where precision means nothing). A model that already
// carries float16 tensors (a strongly typed export) keeps its own types: FP16 where a node writes float16.
// Rules (TensorRT Developer Guide 8.x "Q/DQ Layer-Placement Recommendations": weighted, quantizable and commuting
// layers; ModelOpt's default INT8 op set, int8.py):
//   weighted    Conv, ConvTranspose, Gemm, MatMul: always INT8 (their inputs get Q/DQ).
//   epilogue    Relu, LeakyRelu, Clip (Relu6), BatchNormalization (folded), directly after an INT8 node:
//               INT8, fused into the producer; so are the Sigmoid and Mul of a SiLU x * Sigmoid(x) whose x an
//               INT8 node produces (Conv+SiLU fusion).
//   quantizable Add (the residual add fused with a conv), AveragePool, GlobalAveragePool, MaxPool,
//               GlobalMaxPool: INT8 when one of their float inputs comes from an INT8 node.
//   pass-through data movement (Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Slice, Split,
//               Identity, Pad, Resize, Gather, Tile, Expand, DepthToSpace, SpaceToDepth): INT8 only between
//               INT8 layers: every float input comes from an INT8 node and every consumer is INT8 (no graph
//               output), so no extra reformat is needed.
// Float inputs are the inputs whose type is floating point (or unknown) and which are not initializers,
// so shape and index inputs do not count. The rules run to a fixed point.
// Weighted layers kept in float (FP16, with the reason as the plan's placement note), decided before the rules run
// so their neighbours follow:
//   detectors   in a model with a YOLO DFL (a Conv over a Softmax's probabilities): the DFL and the head's final
//               convs (Ultralytics' and NVIDIA's recipes, ultralytics/utils/export/engine.py);
//   attention   both batched MatMuls of attention (attention_pattern.h) over more than 512 tokens (TensorRT's INT8
//               MHA limit; Model Optimizer drops their Q/DQ). Shorter attention is INT8 on both MatMuls, as the
//               fused INT8 MHA kernel wants; LayerNormalization, GELU and Softmax compute in float (FP16); the
//               residual Add after an INT8 projection is INT8, so the export quantizes its skip input (#3243).
#include "core/quant/precision_plan.h"

namespace ql {

PrecisionPlan defaultPrecisionPlan(const Graph& graph);

// The detector heads' float layers (above) are kept for accuracy, not because TensorRT needs them: planning for speed
// (`tune --objective latency`, the Tune dialog's latency objective: tuning.h) starts them INT8 and lets the measured
// target decide. The nodes of `plan` the default placement kept in float for that reason (its placement note says so;
// a user's edit clears the note) get INT8. Returns how many.
int startDetectorHeadsInInt8(PrecisionPlan& plan);

// TensorRT's INT8 fusions, decided here once for the placement, the realized plan (realized_precision.h) and the
// reading of a written model: the largest subset of `candidates` (one flag per node) in which every node's rule
// above holds given the others. Weighted candidates and `fixed` nodes (one flag per node, or empty) stay: their
// Q/DQ decides them; other nodes of no role (Softmax, Sigmoid outside a SiLU, ...) leave. `computed`: the graph's
// constantComputed flags when the caller has them (a caller that closes round after round), else computed here.
std::vector<bool> closeInt8(const Graph& graph, std::vector<bool> candidates, std::vector<bool> fixed = {},
                            std::vector<bool> computed = {});
// An epilogue, the Sigmoid or Mul of a SiLU, or data movement: the node has no Q/DQ of its own and runs INT8 exactly
// when its neighbours do (closeInt8).
bool followsNeighboursIntoInt8(const Node& node);

// The node an epilogue (Relu, LeakyRelu, Clip, BatchNormalization, or the Sigmoid and Mul of a SiLU) fuses into:
// the producer of its first float input (of x for a SiLU). kNoId for any other node, or when a graph input feeds it.
NodeId fusedProducer(const Graph& graph, const Node& node);

}  // namespace ql
