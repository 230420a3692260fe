#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian numeric and bool arrays in C order.
// Format reference: numpy/lib/format.py ("A Simple File Format for NumPy Arrays", NEP 1).
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/common/mapped_file.h"
#include "core/common/status.h"
#include "core/exec/tensor.h"

namespace ql {

// Reads a whole .npy file into an owned tensor. dtypes: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1.
Result<Tensor> readNpy(const std::string& path);
// The array of a .npy file left in the mapped file: `array` borrows file->bytes() (keep `file` alive),
// so a file larger than memory can be read batch by batch (ArrayInput releases what it has copied).
// Bool arrays are copied instead (numpy bools are normalised to 0/1) and `file` is then null.
struct MappedNpy {
    std::shared_ptr<MappedFile> file;
    Tensor array;
};
Result<MappedNpy> mapNpy(const std::string& path);
// Parses .npy bytes held in memory (e.g. an .npz member); `label` names the source in error messages.
Result<Tensor> parseNpy(std::span<const std::byte> bytes, const std::string& label);
// The .npy encoding of a tensor (version 1.0, or 2.0 when the header needs it).
Result<std::string> encodeNpy(const Tensor& tensor);
// Writes atomically: the target is replaced only once every byte is written.
Status writeNpy(const std::string& path, const Tensor& tensor);
// Writes each tensor to DIR/<name>.npy (created if needed), the name's characters unsafe in a file name replaced
// by '_': how `run --out` writes outputs and what `tune --metric-command` hands to the user's command.
Status writeNamedNpy(const std::string& dir, const std::vector<std::pair<std::string, Tensor>>& tensors);
// "out:0" -> "out_0.npy"; a name too long for a file name keeps its first 200 characters and a hash of the rest.
std::string npyFileName(const std::string& tensorName);

}  // namespace ql
