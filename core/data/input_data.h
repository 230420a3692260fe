#pragma once
// The two ways samples of one input are stored: one array whose first axis is the sample, or one file
// per sample (a folder of .npy files or of images).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/mapped_file.h"
#include "core/data/data_source.h"

namespace ql {

// All samples in one array (a .npy file or an .npz member), checked against the model input once.
// With `file`, the array borrows that mapped file and each batch read is released from memory once
// copied, so a .npy larger than memory calibrates in bounded memory.
class ArrayInput final : public InputData {
public:
    static Result<std::unique_ptr<ArrayInput>> create(Tensor array, const InputSpec& spec, const std::string& label,
                                                      std::shared_ptr<MappedFile> file = nullptr);
    int64_t sampleCount() const override { return mArray.dim(0); }
    Result<Tensor> read(int64_t first, int64_t count) override;

private:
    ArrayInput(Tensor array, std::shared_ptr<MappedFile> file, size_t batchAxis, std::string scalarInput = {})
        : mArray(std::move(array)),
          mFile(std::move(file)),
          mBatchAxis(batchAxis),
          mScalarInput(std::move(scalarInput)) {}
    // A scalar model input (Silero VAD's sample rate `sr`) has no batch axis: the array lists one value per sample,
    // and a batch is that value when all its samples agree.
    Result<Tensor> readScalar(int64_t first, int64_t count) const;
    Tensor mArray;
    std::shared_ptr<MappedFile> mFile;
    size_t mBatchAxis;         // InputSpec::batchAxis; the array lists its samples on its first axis
    std::string mScalarInput;  // the scalar model input's name; empty for inputs with a batch axis
};

// Loads one sample (without batch axis) from a file.
using SampleLoader = std::function<Result<Tensor>(const std::string& path)>;

// One sample per file, loaded when its batch is read; every sample must have the same shape.
class FileListInput final : public InputData {
public:
    FileListInput(std::vector<std::string> files, SampleLoader loader, InputSpec spec)
        : mFiles(std::move(files)), mLoader(std::move(loader)), mSpec(std::move(spec)) {}
    int64_t sampleCount() const override { return static_cast<int64_t>(mFiles.size()); }
    Result<Tensor> read(int64_t first, int64_t count) override;

private:
    Result<Tensor> loadChecked(const std::string& path);

    std::vector<std::string> mFiles;
    SampleLoader mLoader;
    InputSpec mSpec;
    std::optional<std::pair<Shape, std::string>> mFirstShape;  // the shape every sample must have, and its file
};

}  // namespace ql
