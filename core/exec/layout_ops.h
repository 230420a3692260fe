#pragma once
// Layout-aware kernels (see core/exec/layout.h): the interface the executor uses to let a kernel read
// inputs in oneDNN layouts and leave its output in one, and oneDNN binary / pooling over such tensors.
#include <cstdint>
#include <functional>
#include <optional>

#include "core/exec/kernel.h"
#include "core/exec/kernels/pool_geometry.h"
#include "core/exec/layout.h"
#include "core/exec/onednn_util.h"

namespace ql {

class LayoutAwareKernel {
public:
    virtual ~LayoutAwareKernel() = default;
    // Bit i set: input i may be given in a oneDNN layout as it is (the kernel copes with any layout there).
    virtual uint32_t layoutInputs() const = 0;
    // Every consumer of output 0 is layout-aware too, so the output may stay in oneDNN's layout.
    void setKeepLayout(bool keep) { mKeepLayout = keep; }

protected:
    bool mKeepLayout = false;
};

// True when some input is in a oneDNN layout.
bool hasLayoutInput(const KernelContext& ctx);
// Runs `plainCompute` on plain copies of the inputs: a layout-aware kernel's way out for inputs its oneDNN
// path does not cover.
Status computeOnPlain(KernelContext& ctx, const std::function<Status(KernelContext&)>& plainCompute);

// A pooling kernel's primitive for the input layout it last saw, and the layout of its output.
struct PoolPrimitive {
    dnnl::pooling_v2_forward primitive;
    dnnl::memory::desc dst;
};
using PoolCache = onednn::LastPrimitive<PoolPrimitive>;

// Pools input 0 (float, N x C x H x W, any layout) into output 0 with oneDNN; false when the input is not
// of that kind (the caller then computes on plain copies). `op` and `window` must be the same whenever the
// input layout is (one node's).
Result<bool> poolLayoutInput(KernelContext& ctx, dnnl::algorithm op, const PoolWindow& window, bool keepLayout,
                             PoolCache& cache);

// 2-D pooling of a float N x C x H x W tensor in channels-last or channel-blocked layout (block 1, 8 or 16: see
// onednn::channelBlock) into a tensor of `window`'s output shape in the same layout. `row(src, dst, o1, len)`
// fills output row o1 of one plane from the plane's input: an image's pixels of `len` floats each (all C
// channels, or one block of a padded channel count). Rows run in parallel. oneDNN 2.6's pooling reads such
// layouts at ~0.9 ns per value, a pass over the tensor several times over.
using PoolRow = std::function<void(const float* src, float* dst, int64_t o1, int64_t len)>;
Tensor poolRowsInLayout(const Tensor& x, int64_t block, const PoolWindow& window, const PoolRow& row);

namespace onednn {

// A binary primitive for the operand layouts last seen; `reference` when oneDNN only had its slow reference code.
struct BinaryPrimitive {
    dnnl::binary primitive;
    bool reference = false;
};
using BinaryCache = LastPrimitive<BinaryPrimitive>;

// a (op) b for float tensors where `a` has the output's shape and `b` (plain: of any lower rank) each
// dimension equal or 1; nullopt when the operands do not fit that, or when both are plain and oneDNN only has
// its slow reference code for the broadcast. The output takes a's layout when `keepLayout`. `op` must be the
// same whenever the layouts are (one node's).
std::optional<Tensor> binaryInLayout(dnnl::algorithm op, const Tensor& a, const Tensor& b, bool keepLayout,
                                     BinaryCache& cache);

// The channel block of a float N x C x H x W layout `desc` of `shape`: 16 or 8 for nChw16c / nChw8c, 1 for
// channels-last, 0 for plain, -1 for anything else.
int64_t channelBlock(const dnnl::memory::desc& desc, const Shape& shape);
// The same for a tensor (-1 unless it is float).
int64_t channelBlock(const Tensor& x);

// Max / average pooling of a float N x C x H x W tensor in any layout over `window` (2 spatial axes).
Tensor poolInLayout(dnnl::algorithm op, const Tensor& x, const PoolWindow& window, bool keepLayout, PoolCache& cache);

}  // namespace onednn
}  // namespace ql
