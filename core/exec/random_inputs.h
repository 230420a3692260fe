#pragma once
// Inputs for benchmarking and smoke runs: one tensor per graph input with the declared dtype and shape
// (unknown / symbolic dimensions = `openDim`, 1 by default), filled with seeded values (floats in [-1, 1), integers in
// [0, 8), bools). `known`: per input name, the shape it had in a real run (a calibration's): an open dimension takes
// that size times `openDim` instead (a text recognizer's width of 1 fails its pooling; 320 does not).
#include <cstdint>
#include <map>
#include <string>

#include "core/exec/executor.h"

namespace ql {

using KnownInputShapes = std::map<std::string, Shape>;

Result<NamedTensors> randomInputs(const Graph& graph, uint32_t seed = 1, int64_t openDim = 1,
                                  const KnownInputShapes& known = {});

}  // namespace ql
