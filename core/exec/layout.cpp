#include "core/exec/layout.h"

#include "core/exec/onednn_util.h"

namespace ql::onednn {

dnnl::memory::desc descOf(const Tensor& tensor) {
    return tensor.layout() ? tensor.layout()->desc : plainDesc(tensor.shape());
}

dnnl::memory memoryOf(const Tensor& tensor) {
    return wrap(tensor, descOf(tensor));
}

Tensor allocateIn(const dnnl::memory::desc& desc, const Shape& shape) {
    if (desc == plainDesc(shape)) return Tensor(DataType::Float, shape);
    return Tensor::inLayout(DataType::Float, shape, std::make_shared<const TensorLayout>(TensorLayout{desc}),
                            desc.get_size());
}

Tensor convertTo(const Tensor& tensor, const dnnl::memory::desc& desc) {
    if (descOf(tensor) == desc) return tensor;
    Tensor out = allocateIn(desc, tensor.shape());
    reorder(memoryOf(tensor), memoryOf(out));
    return out;
}

Tensor toPlain(const Tensor& tensor) {
    return tensor.isPlain() ? tensor : convertTo(tensor, plainDesc(tensor.shape()));
}

}  // namespace ql::onednn
