#pragma once
// Inputs for benchmarking and smoke runs: one tensor per graph input with the declared dtype and shape
// (unknown / symbolic dimensions = 1), filled with seeded values (floats in [-1, 1), integers in [0, 8), bools).
#include <cstdint>

#include "core/exec/executor.h"

namespace ql {

Result<NamedTensors> randomInputs(const Graph& graph, uint32_t seed = 1);

}  // namespace ql
