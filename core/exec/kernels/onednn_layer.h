#pragma once
// Running a oneDNN forward primitive that takes src, weights, optional bias and dst (Conv, ConvTranspose):
// inputs are reordered into the layouts the primitive chose, constant weights only once, and the result is
// written (or reordered) into a plain output tensor. Also float conversion for the 16/64-bit float dtypes
// the primitives are not given directly.
#include <dnnl.hpp>
#include <map>
#include <memory>
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

struct WeightedPrimitive {
    dnnl::primitive primitive;
    dnnl::memory::desc src, weights, dst;
    dnnl::memory::desc userWeights;  // the weights' layout in the ONNX tensor
    dnnl::memory cachedWeights;      // reordered constant weights, filled on first run
    dnnl::reorder toSrc, fromDst;    // plain input -> src and dst -> plain output, when the layouts differ
    bool hasBias = false;
    Shape outputShape;
    // Made once and pointed at each run's buffers (creating oneDNN memory objects costs ~0.5 us each per call,
    // as much as a small layer's arithmetic).
    dnnl::memory srcMemory, dstMemory, biasMemory, plainSrcMemory, plainDstMemory;
    std::shared_ptr<const TensorLayout> srcLayout, dstLayout;  // null when plain
};

// Work fused into a primitive (executor fusion pass): an activation applied to its result (oneDNN eltwise
// post-op), or the sum of another tensor of the output's shape (oneDNN sum post-op).
struct PostOp {
    bool sum = false;
    dnnl::algorithm algorithm = dnnl::algorithm::undef;
    float alpha = 0.0f, beta = 0.0f;
};
dnnl::primitive_attr postOpAttr(const std::vector<PostOp>& ops);

// Per run: the tensor a sum post-op adds (any layout), whether the output may stay in the primitive's
// layout (every consumer is layout-aware) instead of being reordered to plain, and a factor per input channel
// (weights dim 1, ungrouped) to scale the weights by, in their reordered layout (a squeeze-excite gate folded in).
struct WeightedRun {
    const Tensor* sum = nullptr;
    bool keepLayout = false;
    const float* inputChannelScale = nullptr;
};

// In float weights laid out by `desc`, the run of floats that belong to one input channel (dim 1) and how
// many such runs follow each other (run r is input channel r % count); {0, 0} when the layout does not group
// them so, e.g. when it blocks the input channels (OIhw16i16o). True of plain O x I x k... and of oneDNN's
// O-blocked layouts (Acdb32a: O/32 x H x W x I x 32), where WeightedRun::inputChannelScale costs one pass.
std::pair<int64_t, int64_t> inputChannelRuns(const dnnl::memory::desc& desc);

// Fills src / weights / dst and the activation reorders from the primitive's choices; `x` is the input shape.
void finishPlan(WeightedPrimitive& p, const dnnl::primitive_desc& pd, const Shape& x);

// Runs `p` and returns the float output. `x` may be in any layout (see core/exec/layout.h); the output is
// plain unless `run.keepLayout`.
Result<Tensor> runWeighted(WeightedPrimitive& p, const Tensor& x, const Tensor& w, const Tensor* bias,
                           bool constantWeights, const WeightedRun& run = {});

// A float matmul dst = alpha * a x b (+ beta * dst when beta != 0, so the caller pre-fills dst), for
// Gemm and MatMul. `a` and `b` describe the user's (possibly transposed, strided) layouts.
struct MatMulPlan {
    dnnl::primitive primitive;
    dnnl::memory::desc userB, b, dst;
    dnnl::memory cachedB;
};
MatMulPlan makeMatMulPlan(const dnnl::memory::desc& a, const dnnl::memory::desc& b, const Shape& dst, bool constantB,
                          float alpha, float beta);
void runMatMul(MatMulPlan& plan, const dnnl::memory::desc& a, const Tensor& aData, const Tensor& b, Tensor& dst,
               bool constantB);

// The bytes of input `input` when it is an initializer stored raw (the executor passes those without copying),
// else null. A kernel may cache work derived from the input (reordered weights) while the tensor it is given
// still points at these bytes; an override or an interceptor's replacement points elsewhere.
const void* constantInputData(const KernelInit& info, size_t input);

// A kernel that keeps constant weights reordered into its primitives' layouts between runs. The executor
// turns that off for a single inference (ExecutorOptions::cacheWeights), where the copy only doubles memory.
class WeightCachingKernel {
public:
    virtual ~WeightCachingKernel() = default;
    void setCacheWeights(bool cache) { mCacheWeights = cache; }

protected:
    // Whether `input` (from the kernel's context) is the constant whose bytes init() recorded, and may be cached.
    bool cachable(const void* constantData, const Tensor& input) const {
        return mCacheWeights && constantData && input.rawData() == constantData;
    }

private:
    bool mCacheWeights = true;
};

// Float copies of Float16 / BFloat16 / Double tensors (Float passes through unchanged), and back.
Tensor asFloat(const Tensor& t);
// `t` itself when it is float (no copy of the Tensor), else a float copy kept in `copy`.
const Tensor& asFloat(const Tensor& t, Tensor& copy);
Tensor fromFloat(const Tensor& t, DataType dtype);
bool isFloatingType(DataType dtype);

}  // namespace ql
