#pragma once
// NumPy .npz archives: a zip of .npy members, stored (np.savez) or deflated (np.savez_compressed).
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/common/status.h"
#include "core/data/data_limits.h"
#include "core/exec/tensor.h"

namespace ql {

// Members in archive order, named without the ".npy" suffix (np.savez(path, x=...) gives "x").
using NpzArrays = std::vector<std::pair<std::string, Tensor>>;

Result<NpzArrays> readNpz(const std::string& path, const DataLimits& limits = {});
// The same from the archive's bytes; `label` names it in errors.
Result<NpzArrays> parseNpz(std::span<const std::byte> bytes, const std::string& label, const DataLimits& limits = {});

}  // namespace ql
