#pragma once
// Inputs for benchmarking and smoke runs: one tensor per graph input with the declared dtype and shape
// (unknown / symbolic dimensions = `openDim`, 1 by default), filled with seeded values (floats in [-1, 1), integers in
// [0, 8), bools).
#include <cstdint>

#include "core/exec/executor.h"

namespace ql {

Result<NamedTensors> randomInputs(const Graph& graph, uint32_t seed = 1, int64_t openDim = 1);

}  // namespace ql
