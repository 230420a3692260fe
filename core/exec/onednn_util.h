#pragma once
// Small helpers around oneDNN 2.6 for the heavy kernels (Conv, ConvTranspose, Gemm, MatMul): one CPU
// engine for the process, a stream per thread, plain (row-major) memory descriptors over ql::Tensor
// storage, and reorders into whatever layout a primitive chose (format_tag::any).
#include <dnnl.hpp>

#include "core/exec/tensor.h"

namespace ql::onednn {

dnnl::engine& engine();
dnnl::stream& stream();

dnnl::memory::dims toDims(const Shape& shape);
// Row-major layout of `shape`; `strides` lets a caller describe a permuted view (e.g. a transposed matrix).
dnnl::memory::desc plainDesc(const Shape& shape);
dnnl::memory::desc stridedDesc(const Shape& shape, const Shape& strides);
dnnl::memory::desc anyDesc(const Shape& shape);
// Row-major strides of `shape`.
Shape rowMajorStrides(const Shape& shape);

// Memory over the tensor's storage (no copy); oneDNN only reads inputs, so const is cast away here.
dnnl::memory wrap(const Tensor& tensor, const dnnl::memory::desc& desc);
// `memory` itself when it already has layout `want`, else a reordered copy.
dnnl::memory inLayout(const dnnl::memory& memory, const dnnl::memory::desc& want);
void reorder(const dnnl::memory& from, const dnnl::memory& to);

}  // namespace ql::onednn
