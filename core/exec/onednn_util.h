#pragma once
// Small helpers around oneDNN 2.6 for the heavy kernels (Conv, ConvTranspose, Gemm, MatMul): one CPU
// engine for the process, a stream per thread, plain (row-major) memory descriptors over ql::Tensor
// storage, and reorders into whatever layout a primitive chose (format_tag::any).
#include <dnnl.hpp>
#include <optional>
#include <vector>

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

// The primitive a kernel made for the memory descs it last saw, remade only when they change (a node sees
// the same shapes run after run, and making a primitive costs microseconds per call).
template <typename Primitive>
class LastPrimitive {
public:
    template <typename Make>
    Primitive& get(const std::vector<dnnl::memory::desc>& key, Make&& make) {
        if (!mPrimitive || key != mKey) {
            mPrimitive.emplace(make());
            mKey = key;
        }
        return *mPrimitive;
    }

private:
    std::vector<dnnl::memory::desc> mKey;
    std::optional<Primitive> mPrimitive;
};

}  // namespace ql::onednn
