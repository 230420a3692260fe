#include "core/model/external_data.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <filesystem>

namespace ql {

namespace fs = std::filesystem;

Result<std::string> ExternalDataResolver::safePath(const std::string& location) const {
    if (mModelDir.empty())
        return invalidModel("external data '" + location +
                            "' cannot be resolved for a model read from memory; load it from its file");
    if (location.empty()) return invalidModel("external data with an empty location");
    const fs::path rel(location);
    if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
        return invalidModel("external data location '" + location +
                            "' is an absolute path; only files inside the model's folder are read. Re-save the "
                            "model with a relative location (onnx.save_model(..., location='weights.bin')).");
    for (const auto& part : rel) {
        if (part == "..")
            return invalidModel("external data location '" + location +
                                "' contains '..'; only files inside the model's folder are read. Move the data "
                                "file next to the model and re-save with a relative location.");
    }
    std::error_code ec;
    const fs::path base = fs::canonical(mModelDir, ec);
    if (ec) return ioError("cannot resolve the model folder '" + mModelDir + "': " + ec.message());
    const fs::path full = base / rel;
    if (!fs::exists(full, ec))
        return notFound("external data file '" + location + "' not found next to the model (looked for " +
                        full.string() + ")");
    const fs::path real = fs::canonical(full, ec);
    if (ec) return ioError("cannot resolve external data file '" + full.string() + "': " + ec.message());
    // A symlink may point anywhere: the resolved path must still be inside the model folder.
    auto [baseEnd, realIt] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
    if (baseEnd != base.end())
        return invalidModel("external data location '" + location + "' resolves to '" + real.string() +
                            "', outside the model's folder; refusing to read it. Copy the data file into the "
                            "model's folder.");
    return real.string();
}

Result<std::span<const std::byte>> ExternalDataResolver::resolve(const onnx::TensorProto& tensor,
                                                                 size_t expectedBytes) {
    std::string location;
    int64_t offset = 0;
    int64_t length = -1;
    for (const auto& entry : tensor.external_data()) {
        try {
            if (entry.key() == "location")
                location = entry.value();
            else if (entry.key() == "offset")
                offset = std::stoll(entry.value());
            else if (entry.key() == "length")
                length = std::stoll(entry.value());
        } catch (const std::exception&) {
            return invalidModel("tensor '" + tensor.name() + "': external data " + entry.key() + " '" + entry.value() +
                                "' is not a number");
        }
    }
    if (offset < 0 || length < -1)
        return invalidModel("tensor '" + tensor.name() + "': negative external data offset or length");
    QL_ASSIGN_OR_RETURN(std::string path, safePath(location));
    auto it = mFiles.find(path);
    if (it == mFiles.end()) {
        QL_ASSIGN_OR_RETURN(auto file, MappedFile::open(path));
        it = mFiles.emplace(path, std::move(file)).first;
    }
    const auto bytes = it->second->bytes();
    const size_t size = length >= 0 ? static_cast<size_t>(length) : expectedBytes;
    if (length >= 0 && expectedBytes != 0 && static_cast<size_t>(length) != expectedBytes)
        return invalidModel("tensor '" + tensor.name() + "': external data length " + std::to_string(length) +
                            " does not match its shape and type (" + std::to_string(expectedBytes) + " bytes)");
    if (static_cast<size_t>(offset) > bytes.size() || size > bytes.size() - static_cast<size_t>(offset))
        return invalidModel("tensor '" + tensor.name() + "': external data file '" + location + "' has " +
                            std::to_string(bytes.size()) + " bytes, but the tensor needs bytes " +
                            std::to_string(offset) + ".." + std::to_string(offset + static_cast<int64_t>(size)) +
                            " (file truncated or wrong file?)");
    return bytes.subspan(static_cast<size_t>(offset), size);
}

}  // namespace ql
