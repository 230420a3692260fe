#pragma once
// A conv chain with two INT8 islands between FP16 layers, for the latency prediction's tests (core and window):
//   x [1,16,56,56] -> before (3x3, 16) -> small (1x1, 16) -> widen (3x3, 16->256) -> big (3x3, 256) -> after -> y
// each conv with a Relu fused ("<conv>_relu"). With `small` and `big` INT8 and the rest FP16 (islandsPlan), INT8
// costs in `small` (16 channels padded to 32 gain next to nothing; its two reformats cost more) and pays in `big`
// (a heavy 3x3 conv saves more than its reformats), on a T4 under TensorRT 10.
#include <memory>

#include "core/model/model.h"
#include "core/quant/precision_plan.h"

namespace ql::test {

std::unique_ptr<Model> latencyIslandModel();
// FP16 everywhere but `small` and `big` with their Relus, requested INT8.
PrecisionPlan islandsPlan(const Graph& graph);

}  // namespace ql::test
