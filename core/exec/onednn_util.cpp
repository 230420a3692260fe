#include "core/exec/onednn_util.h"

namespace ql::onednn {

using dt = dnnl::memory::data_type;

dnnl::engine& engine() {
    static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    return cpu;
}

dnnl::stream& stream() {
    // Streams are not thread-safe; executors on different threads each get their own.
    thread_local dnnl::stream s(engine());
    return s;
}

dnnl::memory::dims toDims(const Shape& shape) {
    return dnnl::memory::dims(shape.begin(), shape.end());
}

Shape rowMajorStrides(const Shape& shape) {
    Shape strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * std::max<int64_t>(shape[d], 1);
    return strides;
}

dnnl::memory::desc plainDesc(const Shape& shape) {
    return stridedDesc(shape, rowMajorStrides(shape));
}

dnnl::memory::desc stridedDesc(const Shape& shape, const Shape& strides) {
    return dnnl::memory::desc(toDims(shape), dt::f32, toDims(strides));
}

dnnl::memory::desc anyDesc(const Shape& shape) {
    return dnnl::memory::desc(toDims(shape), dt::f32, dnnl::memory::format_tag::any);
}

dnnl::memory wrap(const Tensor& tensor, const dnnl::memory::desc& desc) {
    return dnnl::memory(desc, engine(), const_cast<void*>(tensor.rawData()));
}

void reorder(const dnnl::memory& from, const dnnl::memory& to) {
    dnnl::reorder(from, to).execute(stream(), const_cast<dnnl::memory&>(from), const_cast<dnnl::memory&>(to));
    stream().wait();
}

dnnl::memory inLayout(const dnnl::memory& memory, const dnnl::memory::desc& want) {
    if (memory.get_desc() == want) return memory;
    dnnl::memory out(want, engine());
    reorder(memory, out);
    return out;
}

}  // namespace ql::onednn
