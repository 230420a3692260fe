#pragma once
// Tensors kept in the layout a oneDNN primitive prefers (channels-last or channel-blocked, e.g. nChw16c)
// between layout-aware steps, so consecutive convolutions do not reorder to and from NCHW around each
// other. Plain kernels never see such a tensor: the executor converts it with toPlain() first.
#include <dnnl.hpp>

#include "core/exec/tensor.h"

namespace ql {

struct TensorLayout {
    dnnl::memory::desc desc;
};

namespace onednn {

// The tensor's layout: its oneDNN desc, or the row-major desc of its shape. Float tensors only.
dnnl::memory::desc descOf(const Tensor& tensor);
dnnl::memory memoryOf(const Tensor& tensor);
// A float tensor of logical `shape` with storage in `desc`; a plain tensor when `desc` is row-major.
Tensor allocateIn(const dnnl::memory::desc& desc, const Shape& shape);
// `tensor` itself when it already has layout `desc`, else a reordered copy.
Tensor convertTo(const Tensor& tensor, const dnnl::memory::desc& desc);
// `tensor` itself when plain, else a row-major copy.
Tensor toPlain(const Tensor& tensor);

}  // namespace onednn
}  // namespace ql
