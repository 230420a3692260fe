#pragma once
// Helpers the control-flow kernels (If, Loop, Scan) share: scalar inputs, and cutting and stacking tensors
// along an axis.
#include <cstdint>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

// A single-element condition (bool, or any number: non-zero is true); fails naming the node otherwise.
Result<bool> readCondition(const KernelContext& ctx, size_t input);
// A single-element integer input (int32 or int64).
Result<int64_t> readScalarInt(const KernelContext& ctx, size_t input);

Tensor scalarInt64(int64_t value);
Tensor scalarBool(bool value);

// The slice of `t` at `index` along `axis`, without that axis.
Tensor sliceAlong(const Tensor& t, int64_t axis, int64_t index);

// Stacks equally shaped `parts` along a new `axis` of the result (0 <= axis <= part rank), in reverse order when
// `reverse`. No parts: an empty tensor of the `declared` element type, shaped by it when its dims are known, else
// [0]. Fails naming the node when the parts' shapes or types differ (`what` names them: "scan output 1").
Result<Tensor> stackAlong(const KernelContext& ctx, const std::vector<Tensor>& parts, int64_t axis, bool reverse,
                          const TensorType& declared, const std::string& what);

}  // namespace ql
