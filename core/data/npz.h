#pragma once
// NumPy .npz archives: a zip of .npy members, stored (np.savez) or deflated (np.savez_compressed).
#include <string>
#include <utility>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor.h"

namespace ql {

// Members in archive order, named without the ".npy" suffix (np.savez(path, x=...) gives "x").
using NpzArrays = std::vector<std::pair<std::string, Tensor>>;

Result<NpzArrays> readNpz(const std::string& path);

}  // namespace ql
