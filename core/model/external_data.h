#pragma once
// External tensor data (data_location = EXTERNAL), read by memory-mapping the data files.
// Only files inside the model's folder are read: an absolute location, a ".." component or a symlink that
// leads outside is refused (the path-traversal hole of ONNX tooling, CVE-2022-25882 / CVE-2024-27318).
#include <map>
#include <memory>
#include <span>
#include <string>

#include "core/common/mapped_file.h"
#include "core/common/status.h"

namespace onnx {
class TensorProto;
}

namespace ql {

class ExternalDataResolver {
public:
    // `modelDir` is the folder of the model file; empty when the model came from memory (then any
    // external reference is an error).
    explicit ExternalDataResolver(std::string modelDir) : mModelDir(std::move(modelDir)) {}

    // The bytes of an external tensor, checked against the size its dtype and dims require.
    Result<std::span<const std::byte>> resolve(const onnx::TensorProto& tensor, size_t expectedBytes);

    // Checks that `location` stays inside the model folder and returns the full path.
    Result<std::string> safePath(const std::string& location) const;

private:
    std::string mModelDir;
    std::map<std::string, std::shared_ptr<MappedFile>> mFiles;
};

}  // namespace ql
