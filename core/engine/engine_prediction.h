#pragma once
// The engine TensorRT would build from the realized model, before any build (issue 28, item 1): its layers in
// execution order, what ONNX nodes each fuses, the precision each computes in, the precision and layout of each
// tensor it reads and writes, and a Reformat layer at every precision or layout boundary. The latency model
// (latency_model.h) times these layers on a GPU. docs/performance-model.md says how the rules were derived and how
// well they matched real engine reports.
//
// Input: a graph and its effective plan (effectivePlan: the plan as the export realizes it, or what a Q/DQ model
// carries). Rules, from TensorRT's Developer Guide ("Layer Fusion", "Q/DQ Fusion") and the engine reports of
// ../shared/data/engine-reports:
//   - no layer: nodes computed from constants or shapes, data movement that only renames memory (Reshape, Flatten,
//     Squeeze, Unsqueeze, Identity, Dropout, Cast between float types, Q/DQ: absorbed by the layers around them),
//     and Concat (TensorRT writes its inputs into one buffer);
//   - Conv/ConvTranspose (Gemm/MatMul with a weight on 8.x) + folded BatchNormalization + bias/scale by a constant +
//     activations (Relu, Clip, LeakyRelu, Sigmoid, Tanh, HardSwish, SiLU) + one residual Add: one layer, as long as
//     the tensor between them has no other reader and, under strong typing, the precision does not change;
//   - TensorRT 10 and 11 hand MatMul/Gemm, Softmax, normalizations, reductions and attention, with the pointwise and
//     data-movement nodes around them, to Myelin: per region a shape_call (dynamic shapes), one gemm per MatMul/Gemm
//     (with its epilogue), one attention kernel per fused attention, and kgen kernels for the rest (a Softmax spans
//     two);
//   - other pointwise chains fuse into one PointWise layer; pooling, resize, slice, pad, transpose and the rest are
//     one layer each;
//   - formats: INT8 convolutions read and write 32-wide channel vectors (4-wide for at most 4 channels), FP16 ones
//     channel-major HWC8 (HWC4), FP32 ones linear; Myelin, Softmax and normalizations linear; pooling and pointwise
//     layers keep their input's layout. A layer writes the precision all its readers want when it can (TensorRT
//     fuses the Q or DQ into its output); any other difference between what a tensor is and what its reader wants
//     is a Reformat, one per tensor and wanted form.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_report.h"
#include "core/lint/trt_version.h"
#include "core/model/graph.h"
#include "core/model/subgraph_model.h"
#include "core/quant/precision_plan.h"

namespace ql {

enum class PredictedKind {
    Convolution,
    Deconvolution,
    Gemm,
    Attention,
    Pooling,
    Pointwise,
    Normalization,
    Softmax,
    Reduce,
    Kgen,  // a Myelin-generated kernel (pointwise/reduction code of a Myelin region)
    ShapeCall,
    Shuffle,
    Resize,
    Slice,
    Padding,
    Gather,
    Reformat,
    Other,
};

const char* predictedKindName(PredictedKind kind);  // "convolution", "gemm", "kgen", "reformat", ...

// How a tensor is laid out in memory (TensorRT's TensorFormat).
enum class EngineLayout { Linear, Chw4, Chw32, Hwc4, Hwc8 };

const char* engineLayoutName(EngineLayout layout);  // "linear", "chw4", "chw32", "hwc4", "hwc8"

// What the latency model times a layer as (latency_model.h): each class has its own efficiency terms.
enum class CostClass {
    Convolution,
    Depthwise,  // grouped with one input channel per group: no tensor-core gain
    Gemm,
    Attention,
    Pooling,
    Pointwise,
    Normalization,  // softmax, normalizations, reductions, Myelin kgen kernels
    Reformat,
    Shuffle,  // transpose, slice, pad, gather, resize and other data movement
    ShapeCall,
};
inline constexpr int kCostClassCount = 10;

const char* costClassName(CostClass cls);  // "convolution", "depthwise", ...
std::optional<CostClass> parseCostClass(const std::string& name);

struct PredictedTensor {
    ValueId value = kNoId;  // the ONNX tensor; kNoId for what a reformat writes
    EnginePrecision precision = EnginePrecision::Fp32;
    EngineLayout layout = EngineLayout::Linear;
    int64_t elements = 0;
};

struct PredictedLayer {
    std::string name;  // TensorRT's spelling: the fused nodes joined with " + "
    PredictedKind kind = PredictedKind::Other;
    CostClass costClass = CostClass::Pointwise;
    std::vector<NodeId> nodes;  // the ONNX nodes it computes (empty for a reformat and a shape_call)
    EnginePrecision precision = EnginePrecision::Fp32;
    std::vector<PredictedTensor> inputs;
    std::vector<PredictedTensor> outputs;
    int64_t macs = 0;   // multiply-accumulates, with the channel padding the layout needs
    int64_t bytes = 0;  // activations read and written and weights read, at their precisions
    // Of `bytes`: the activations read that another layer of the engine wrote (not graph inputs), which the L2 cache
    // may still hold (latency_model.h).
    int64_t activationBytesRead = 0;
    int64_t outputTiles = 0;      // output elements / 2048: how many 64x32 tiles a GEMM kernel would run (0: none)
    std::optional<size_t> feeds;  // a reformat: the layer it converts a tensor for
    std::string note;             // why a reformat is there ("INT8 -> FP16 for ...")
};

// A control-flow node whose bodies the prediction could not model (a body that does not build as a graph): its layer
// stands for them at no cost.
struct UnpredictedBodies {
    std::string node;      // the If/Loop/Scan node
    size_t bodies = 0;     // its subgraph attributes
    size_t bodyNodes = 0;  // their nodes, nested ones included
};

struct EnginePrediction;

// An If branch or a Loop/Scan body: TensorRT builds it as the layers of a conditional or a loop, predicted like the
// main graph over the body's graph (the weights it reads from enclosing graphs as its constants) with the body's
// plan (PrecisionPlan::bodies); a body without one runs its float layers as the target runs float: FP16 under weak
// typing (the builder's --fp16), FP32 under strong typing (the file's float32).
struct PredictedBody {
    std::string node;       // the control-flow node of the enclosing graph
    std::string opType;     // "If", "Loop", "Scan"
    std::string attribute;  // "then_branch", "else_branch", "body"
    std::shared_ptr<const SubgraphModel> graph;
    std::shared_ptr<const EnginePrediction> engine;  // its nested bodies among its own `bodies`
    std::optional<int64_t> trips;                    // a Loop's constant trip count; nullopt when only a run knows it
};

struct EnginePrediction {
    TrtTarget target;
    std::vector<PredictedLayer> layers;  // execution order
    bool approximateShapes = false;      // some dimension was unknown and taken as 1 (in a body too)
    std::vector<PredictedBody> bodies;   // in graph order of their nodes
    std::vector<UnpredictedBodies> unpredictedBodies;
    size_t reformatCount() const;
};

// The layers of the engine `target` builds from `graph` with `plan`'s effective precisions, and its bodies'.
EnginePrediction predictEngine(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target);

}  // namespace ql
