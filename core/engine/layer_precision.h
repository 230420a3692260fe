#pragma once
// The precision a layer computes in, from what the report says of it:
//   - a reformat: the type it writes (a Q/DQ TensorRT could not fuse writes int8 or converts back to float);
//   - otherwise the narrowest compute type among its weights and its data inputs, so an INT8 convolution whose
//     output is FP16 (int8 in, fp16 out, "i8816" tactics) computes int8; index, shape and mask inputs (int32, int64,
//     bool) do not count;
//   - a layer with neither: the narrowest type of its outputs;
//   - Unknown when the report gives no formats (built without --profilingVerbosity=detailed, dynamic shapes).
#include "core/engine/engine_report.h"

namespace ql {

EnginePrecision layerPrecision(const EngineLayer& layer);
// The narrowest compute type among the layer's data inputs; Unknown when none is known.
EnginePrecision inputPrecision(const EngineLayer& layer);

}  // namespace ql
