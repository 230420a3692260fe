#pragma once
// The forms of the engine's layers as engine_prediction.cpp wires them: the precision and layout a layer reads and
// writes, bytes per element, the cost class of a fused group. Shared by the prediction's wiring only.
#include <cstdint>

#include "core/engine/engine_prediction.h"
#include "core/engine/prediction_groups.h"

namespace ql::prediction {

// What a layer reads or writes: precision and layout.
struct Form {
    EnginePrecision precision = EnginePrecision::Fp32;
    EngineLayout layout = EngineLayout::Linear;
    bool operator==(const Form&) const = default;
};

int64_t bytesPerElement(EnginePrecision precision);
// The engine precision of a tensor of ONNX type `type`.
EnginePrecision precisionOfType(DataType type);
// Channels of a 4-D (NCHW) tensor, -1 when unknown.
int64_t channels(const Graph& graph, ValueId v);
// The layout a convolution of `precision` reads and writes (the formats of every report in the data).
EngineLayout convolutionLayout(EnginePrecision precision, int64_t channelCount);
// The layout a layout-agnostic layer converts to when the precision changes.
EngineLayout naturalLayout(EnginePrecision precision);
bool isCompute(EnginePrecision precision);
// Layers that keep the layout of what they read (TensorRT picks their format from their neighbours).
bool keepsLayout(const Group& group);
// Layers that write the precision their readers want, TensorRT fusing the Q or DQ into their output.
bool writesReadersPrecision(const Group& group);
// The latency model's class of a fused layer (depthwise: a grouped convolution of fewer than 8 channels a group).
CostClass costClassOf(const Graph& graph, const Group& group);
// `value` rounded up to a multiple of `to` (the channel vectors of a layout).
int64_t roundUp(int64_t value, int64_t to);

}  // namespace ql::prediction
