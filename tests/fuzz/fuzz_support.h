#pragma once
// Shared by the libFuzzer targets: the sample model's graph (the readers of calibrations and plans check names
// against a model) and a scratch file for readers that take a path.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/model/model.h"

namespace ql::fuzz {

inline std::span<const std::byte> bytesOf(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const std::byte*>(data), size};
}

inline std::string_view textOf(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// resources/samples/digits_cnn.onnx, loaded once.
inline const Graph& sampleGraph() {
    static const std::unique_ptr<Model> model = [] {
        LoadOptions options;
        options.runChecker = false;
        auto loaded = Model::load(QL_FUZZ_SAMPLE_MODEL, options);
        if (!loaded.isOk()) std::abort();  // a broken checkout, not a finding
        return std::move(*loaded);
    }();
    return model->graph();
}

// Writes the input to a per-process scratch file with `extension` and returns its path.
inline std::string scratchFile(const uint8_t* data, size_t size, const std::string& extension) {
    const std::string path = "/tmp/ql-fuzz-" + std::to_string(::getpid()) + extension;
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

}  // namespace ql::fuzz
