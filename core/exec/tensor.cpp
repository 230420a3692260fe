#include "core/exec/tensor.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "core/model/tensor_data.h"

namespace ql {

int64_t shapeElementCount(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string shapeString(const Shape& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

namespace {
std::shared_ptr<std::byte> allocateAligned(size_t bytes) {
    const size_t rounded = ((bytes + 63) / 64) * 64;
    void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (!p) throw std::bad_alloc();
    return std::shared_ptr<std::byte>(static_cast<std::byte*>(p), [](std::byte* q) { std::free(q); });
}
}  // namespace

Tensor::Tensor(DataType dtype, Shape shape) : mDtype(dtype), mShape(std::move(shape)) {
    mCount = shapeElementCount(mShape);
    mStorage = allocateAligned(byteSize());
    mData = mStorage.get();
}

Tensor Tensor::zeros(DataType dtype, Shape shape) {
    Tensor t(dtype, std::move(shape));
    std::memset(t.mData, 0, t.byteSize());
    return t;
}

Tensor Tensor::borrowed(DataType dtype, Shape shape, const void* data) {
    Tensor t;
    t.mDtype = dtype;
    t.mShape = std::move(shape);
    t.mCount = shapeElementCount(t.mShape);
    t.mData = const_cast<void*>(data);
    t.mBorrowed = true;
    return t;
}

Tensor Tensor::inLayout(DataType dtype, Shape shape, std::shared_ptr<const TensorLayout> layout, size_t bytes) {
    Tensor t;
    t.mDtype = dtype;
    t.mShape = std::move(shape);
    t.mCount = shapeElementCount(t.mShape);
    t.mStorage = allocateAligned(bytes);
    t.mData = t.mStorage.get();
    t.mLayout = std::move(layout);
    t.mLayoutBytes = bytes;
    return t;
}

Tensor Tensor::reshaped(Shape shape) const {
    Tensor t = *this;
    t.mShape = std::move(shape);
    return t;
}

Tensor Tensor::reinterpreted(DataType dtype) const {
    Tensor t = *this;
    if (dataTypeSize(dtype) == dataTypeSize(mDtype)) t.mDtype = dtype;
    return t;
}

Tensor Tensor::clone() const {
    Tensor t = mLayout ? inLayout(mDtype, mShape, mLayout, mLayoutBytes) : Tensor(mDtype, mShape);
    if (byteSize()) std::memcpy(t.mData, mData, byteSize());
    return t;
}

std::vector<float> Tensor::toFloats() const {
    return bytesAsFloats({static_cast<const std::byte*>(mData), byteSize()}, mDtype);
}

std::vector<int64_t> Tensor::toInt64s() const {
    return bytesAsInt64s({static_cast<const std::byte*>(mData), byteSize()}, mDtype);
}

}  // namespace ql
