#pragma once
// A typed n-dimensional array: dtype, shape and storage that is either owned (shared between copies,
// so views such as Reshape cost nothing) or borrowed from memory the caller keeps alive.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/model/data_type.h"

namespace ql {

using Shape = std::vector<int64_t>;

// A oneDNN memory layout (blocked / channels-last) chosen by a primitive; defined in core/exec/layout.h so
// that this header stays free of oneDNN. Null means plain row-major.
struct TensorLayout;

int64_t shapeElementCount(const Shape& shape);
std::string shapeString(const Shape& shape);  // "[1,3,224,224]"

class Tensor {
public:
    Tensor() = default;
    // Allocates uninitialised, 64-byte aligned storage.
    Tensor(DataType dtype, Shape shape);
    static Tensor zeros(DataType dtype, Shape shape);
    // Wraps memory owned by someone else (e.g. an initializer's raw bytes); it must outlive the tensor.
    static Tensor borrowed(DataType dtype, Shape shape, const void* data);
    // Allocates `bytes` of storage holding the logical `shape` in `layout` (see core/exec/layout.h).
    static Tensor inLayout(DataType dtype, Shape shape, std::shared_ptr<const TensorLayout> layout, size_t bytes);
    // A tensor holding a copy of `values`.
    template <typename T>
    static Tensor fromVector(DataType dtype, Shape shape, const std::vector<T>& values);

    DataType dtype() const { return mDtype; }
    const Shape& shape() const { return mShape; }
    size_t rank() const { return mShape.size(); }
    int64_t dim(size_t axis) const { return mShape.at(axis); }
    int64_t elementCount() const { return mCount; }
    // Storage size: the elements, or for a tensor in a oneDNN layout the layout's (possibly padded) size.
    size_t byteSize() const { return mLayout ? mLayoutBytes : static_cast<size_t>(mCount) * dataTypeSize(mDtype); }
    bool empty() const { return mData == nullptr && mCount == 0 && mDtype == DataType::Undefined; }
    bool isBorrowed() const { return mBorrowed; }
    // True when no other Tensor shares this storage (in-place work is safe).
    bool isUnique() const { return !mBorrowed && mStorage.use_count() == 1; }
    // Non-null when the storage is in a oneDNN layout rather than row-major. Only layout-aware kernels
    // (Conv, the executor's fused steps) ever see such tensors: the executor converts the rest to plain.
    const std::shared_ptr<const TensorLayout>& layout() const { return mLayout; }
    bool isPlain() const { return !mLayout; }

    void* rawData() { return mData; }
    const void* rawData() const { return mData; }
    template <typename T>
    T* data() {
        return static_cast<T*>(mData);
    }
    template <typename T>
    const T* data() const {
        return static_cast<const T*>(mData);
    }
    template <typename T>
    std::span<T> span() {
        return {data<T>(), static_cast<size_t>(mCount)};
    }
    template <typename T>
    std::span<const T> span() const {
        return {data<T>(), static_cast<size_t>(mCount)};
    }

    // Same storage, another shape with the same element count (Reshape, Flatten, Squeeze...).
    Tensor reshaped(Shape shape) const;
    // Same storage seen as another dtype of the same element size (e.g. UINT16 bits as BFLOAT16).
    Tensor reinterpreted(DataType dtype) const;
    // A deep copy with owned storage.
    Tensor clone() const;
    // Values converted to float (any numeric dtype).
    std::vector<float> toFloats() const;
    std::vector<int64_t> toInt64s() const;

private:
    DataType mDtype = DataType::Undefined;
    Shape mShape;
    int64_t mCount = 0;
    std::shared_ptr<std::byte> mStorage;
    void* mData = nullptr;
    bool mBorrowed = false;
    std::shared_ptr<const TensorLayout> mLayout;
    size_t mLayoutBytes = 0;
};

template <typename T>
Tensor Tensor::fromVector(DataType dtype, Shape shape, const std::vector<T>& values) {
    Tensor t(dtype, std::move(shape));
    if (static_cast<size_t>(t.elementCount()) == values.size() && sizeof(T) == dataTypeSize(dtype) && !values.empty())
        std::copy(values.begin(), values.end(), t.data<T>());
    return t;
}

}  // namespace ql
