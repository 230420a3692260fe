#include "core/data/input_data.h"

#include <cstring>

namespace ql {
namespace {

Status checkRange(int64_t first, int64_t count, int64_t available) {
    if (first >= 0 && count > 0 && first + count <= available) return Status::ok();
    return invalidArgument("samples " + std::to_string(first) + ".." + std::to_string(first + count) +
                           " requested from data holding " + std::to_string(available));
}

Shape withBatch(int64_t count, const Shape& sample) {
    Shape shape{count};
    shape.insert(shape.end(), sample.begin(), sample.end());
    return shape;
}

}  // namespace

Result<std::unique_ptr<ArrayInput>> ArrayInput::create(Tensor array, const InputSpec& spec, const std::string& label,
                                                       std::shared_ptr<MappedFile> file) {
    if (array.rank() == 0) {
        return invalidArgument(label + ": holds a single scalar; its first axis must list the samples for input '" +
                               spec.name + "'");
    }
    if (spec.hasShape && spec.dims.empty()) {
        InputSpec anyShape = spec;
        anyShape.hasShape = false;
        QL_RETURN_IF_ERROR(checkSample({}, array.dtype(), anyShape, label).status());
        if (array.rank() != 1)
            return invalidArgument(label + ": model input '" + spec.name + "' is a scalar; give one value per sample " +
                                   "(an array of shape [samples]), not " + shapeString(array.shape()));
        return std::unique_ptr<ArrayInput>(new ArrayInput(std::move(array), std::move(file), 0, spec.name));
    }
    QL_ASSIGN_OR_RETURN(Shape sample,
                        checkSample(Shape(array.shape().begin() + 1, array.shape().end()), array.dtype(), spec, label));
    const int64_t count = array.dim(0);
    return std::unique_ptr<ArrayInput>(
        new ArrayInput(array.reshaped(withBatch(count, sample)), std::move(file), spec.batchAxis));
}

Result<Tensor> ArrayInput::readScalar(int64_t first, int64_t count) const {
    const size_t bytes = mArray.byteSize() / static_cast<size_t>(sampleCount());
    const auto* values = static_cast<const std::byte*>(mArray.rawData());
    for (int64_t i = first + 1; i < first + count; ++i)
        if (std::memcmp(values + i * bytes, values + first * bytes, bytes) != 0)
            return invalidArgument(
                "model input '" + mScalarInput + "' is a scalar, so one batch takes one value of it, " +
                "but samples " + std::to_string(first) + " and " + std::to_string(i) +
                " differ; run with --batch 1, or order the samples so that equal values are together");
    Tensor value(mArray.dtype(), Shape{});
    std::memcpy(value.rawData(), values + first * bytes, bytes);
    return value;
}

Result<Tensor> ArrayInput::read(int64_t first, int64_t count) {
    QL_RETURN_IF_ERROR(checkRange(first, count, sampleCount()));
    if (!mScalarInput.empty()) return readScalar(first, count);
    const Shape sample(mArray.shape().begin() + 1, mArray.shape().end());
    Tensor batch(mArray.dtype(), withBatch(count, sample));
    const size_t sampleBytes = batch.byteSize() / static_cast<size_t>(count);
    if (!batch.byteSize()) return batch;
    const std::span<const std::byte> source(static_cast<const std::byte*>(mArray.rawData()) + first * sampleBytes,
                                            batch.byteSize());
    std::memcpy(batch.rawData(), source.data(), source.size());
    if (mFile) mFile->release(source);
    return stackOnAxis(std::move(batch), mBatchAxis);
}

Result<Tensor> FileListInput::loadChecked(const std::string& path) {
    QL_ASSIGN_OR_RETURN(Tensor t, mLoader(path));
    QL_ASSIGN_OR_RETURN(Shape shape, checkSample(t.shape(), t.dtype(), mSpec, path));
    if (!mFirstShape) mFirstShape.emplace(shape, path);
    if (shape != mFirstShape->first) {
        return invalidArgument(path + ": a sample of shape " + shapeString(shape) + " but " + mFirstShape->second +
                               " has shape " + shapeString(mFirstShape->first) + "; every sample of input '" +
                               mSpec.name + "' must have the same shape");
    }
    return t.reshaped(shape);
}

Result<Tensor> FileListInput::read(int64_t first, int64_t count) {
    QL_RETURN_IF_ERROR(checkRange(first, count, sampleCount()));
    Tensor batch;
    for (int64_t i = 0; i < count; ++i) {
        QL_ASSIGN_OR_RETURN(Tensor sample, loadChecked(mFiles[static_cast<size_t>(first + i)]));
        if (i == 0) batch = Tensor(sample.dtype(), withBatch(count, sample.shape()));
        if (sample.byteSize())
            std::memcpy(static_cast<std::byte*>(batch.rawData()) + i * sample.byteSize(), sample.rawData(),
                        sample.byteSize());
    }
    return stackOnAxis(std::move(batch), mSpec.batchAxis);
}

}  // namespace ql
