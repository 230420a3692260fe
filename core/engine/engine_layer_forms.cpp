#include "core/engine/engine_layer_forms.h"

namespace ql::prediction {

int64_t bytesPerElement(EnginePrecision precision) {
    switch (precision) {
        case EnginePrecision::Int8:
        case EnginePrecision::Fp8:
        case EnginePrecision::UInt8:
        case EnginePrecision::Bool:
            return 1;
        case EnginePrecision::Fp16:
        case EnginePrecision::Bf16:
            return 2;
        case EnginePrecision::Int64:
            return 8;
        default:
            return 4;
    }
}

EnginePrecision precisionOfType(DataType type) {
    switch (type) {
        case DataType::Float16:
            return EnginePrecision::Fp16;
        case DataType::BFloat16:
            return EnginePrecision::Bf16;
        case DataType::Int8:
            return EnginePrecision::Int8;
        case DataType::Int32:
            return EnginePrecision::Int32;
        case DataType::Int64:
            return EnginePrecision::Int64;
        case DataType::Bool:
            return EnginePrecision::Bool;
        case DataType::UInt8:
            return EnginePrecision::UInt8;
        default:
            return EnginePrecision::Fp32;
    }
}

// Channels of a 4-D (NCHW) tensor, -1 when unknown.
int64_t channels(const Graph& graph, ValueId v) {
    if (v == kNoId) return -1;
    const TensorType& type = graph.value(v).type;
    return type.hasShape && type.dims.size() == 4 ? type.dims[1].size : -1;
}

// The layout a convolution of `precision` reads and writes (the formats of every report in the data).
EngineLayout convolutionLayout(EnginePrecision precision, int64_t channelCount) {
    const bool few = channelCount >= 1 && channelCount <= 4;
    if (precision == EnginePrecision::Int8) return few ? EngineLayout::Chw4 : EngineLayout::Chw32;
    if (precision == EnginePrecision::Fp16) return few ? EngineLayout::Hwc4 : EngineLayout::Hwc8;
    return EngineLayout::Linear;
}

// The layout a layout-agnostic layer converts to when the precision changes.
EngineLayout naturalLayout(EnginePrecision precision) {
    return convolutionLayout(precision, -1);
}

bool isCompute(EnginePrecision precision) {
    return precision == EnginePrecision::Int8 || precision == EnginePrecision::Fp16 ||
           precision == EnginePrecision::Fp32 || precision == EnginePrecision::Bf16 ||
           precision == EnginePrecision::Fp8;
}

// Layers that keep the layout of what they read (TensorRT picks their format from their neighbours).
bool keepsLayout(const Group& group) {
    switch (group.kind) {
        case PredictedKind::Pooling:
        case PredictedKind::Pointwise:
        case PredictedKind::Resize:
        case PredictedKind::Slice:
        case PredictedKind::Padding:
        case PredictedKind::Shuffle:
            return group.region < 0;
        case PredictedKind::Kgen:
            return group.movesDataOnly;
        default:
            return false;
    }
}

// Layers that write the precision their readers want, TensorRT fusing the Q or DQ into their output.
bool writesReadersPrecision(const Group& group) {
    switch (group.kind) {
        case PredictedKind::Convolution:
        case PredictedKind::Deconvolution:
        case PredictedKind::Gemm:
        case PredictedKind::Attention:
        case PredictedKind::Pointwise:
        case PredictedKind::Kgen:
            return true;
        default:
            return false;
    }
}

CostClass costClassOf(const Graph& graph, const Group& group) {
    switch (group.kind) {
        case PredictedKind::Convolution:
        case PredictedKind::Deconvolution: {
            const Node& conv = graph.node(group.anchor);
            const int64_t groups = conv.intAttribute("group", 1);
            const TensorType& w = graph.value(conv.inputs[1]).type;
            const int64_t perGroup = w.hasShape && w.dims.size() >= 2 ? w.dims[1].size : -1;
            return groups > 1 && perGroup >= 0 && perGroup < 8 ? CostClass::Depthwise : CostClass::Convolution;
        }
        case PredictedKind::Gemm:
            return CostClass::Gemm;
        case PredictedKind::Attention:
            return CostClass::Attention;
        case PredictedKind::Pooling:
            return CostClass::Pooling;
        case PredictedKind::Pointwise:
            return CostClass::Pointwise;
        case PredictedKind::Normalization:
        case PredictedKind::Softmax:
        case PredictedKind::Reduce:
        case PredictedKind::Kgen:
            return CostClass::Normalization;
        case PredictedKind::ShapeCall:
            return CostClass::ShapeCall;
        case PredictedKind::Reformat:
            return CostClass::Reformat;
        default:
            return CostClass::Shuffle;
    }
}

int64_t roundUp(int64_t value, int64_t to) {
    return to <= 1 || value <= 0 ? value : (value + to - 1) / to * to;
}

}  // namespace ql::prediction
