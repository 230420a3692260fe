#include "core/exec/kernels/registry.h"

#include "core/exec/kernels/activation.h"
#include "core/exec/kernels/arg_extreme.h"
#include "core/exec/kernels/arithmetic.h"
#include "core/exec/kernels/attention.h"
#include "core/exec/kernels/average_pool.h"
#include "core/exec/kernels/batch_normalization.h"
#include "core/exec/kernels/bit_shift.h"
#include "core/exec/kernels/cast.h"
#include "core/exec/kernels/clip.h"
#include "core/exec/kernels/comparison.h"
#include "core/exec/kernels/compress.h"
#include "core/exec/kernels/concat.h"
#include "core/exec/kernels/constant.h"
#include "core/exec/kernels/conv.h"
#include "core/exec/kernels/conv_integer.h"
#include "core/exec/kernels/conv_transpose.h"
#include "core/exec/kernels/cum_sum.h"
#include "core/exec/kernels/deform_conv.h"
#include "core/exec/kernels/depth_to_space.h"
#include "core/exec/kernels/det.h"
#include "core/exec/kernels/dft.h"
#include "core/exec/kernels/dropout.h"
#include "core/exec/kernels/dynamic_quantize_linear.h"
#include "core/exec/kernels/einsum.h"
#include "core/exec/kernels/expand.h"
#include "core/exec/kernels/eye_like.h"
#include "core/exec/kernels/gather.h"
#include "core/exec/kernels/gather_elements.h"
#include "core/exec/kernels/gather_nd.h"
#include "core/exec/kernels/gemm.h"
#include "core/exec/kernels/global_pool.h"
#include "core/exec/kernels/grid_sample.h"
#include "core/exec/kernels/group_normalization.h"
#include "core/exec/kernels/gru.h"
#include "core/exec/kernels/identity.h"
#include "core/exec/kernels/if.h"
#include "core/exec/kernels/image_scaler.h"
#include "core/exec/kernels/instance_normalization.h"
#include "core/exec/kernels/is_inf_nan.h"
#include "core/exec/kernels/layer_normalization.h"
#include "core/exec/kernels/logical.h"
#include "core/exec/kernels/loop.h"
#include "core/exec/kernels/lp_normalization.h"
#include "core/exec/kernels/lp_pool.h"
#include "core/exec/kernels/lrn.h"
#include "core/exec/kernels/lstm.h"
#include "core/exec/kernels/matmul.h"
#include "core/exec/kernels/matmul_integer.h"
#include "core/exec/kernels/max_pool.h"
#include "core/exec/kernels/max_unpool.h"
#include "core/exec/kernels/mean_variance_normalization.h"
#include "core/exec/kernels/mod.h"
#include "core/exec/kernels/negative_log_likelihood_loss.h"
#include "core/exec/kernels/non_max_suppression.h"
#include "core/exec/kernels/non_zero.h"
#include "core/exec/kernels/one_hot.h"
#include "core/exec/kernels/pad.h"
#include "core/exec/kernels/pow.h"
#include "core/exec/kernels/prelu.h"
#include "core/exec/kernels/qlinear_binary.h"
#include "core/exec/kernels/qlinear_concat.h"
#include "core/exec/kernels/qlinear_conv.h"
#include "core/exec/kernels/qlinear_global_average_pool.h"
#include "core/exec/kernels/qlinear_lookup.h"
#include "core/exec/kernels/qlinear_matmul.h"
#include "core/exec/kernels/quantize_linear.h"
#include "core/exec/kernels/random.h"
#include "core/exec/kernels/range.h"
#include "core/exec/kernels/reduce.h"
#include "core/exec/kernels/reshape.h"
#include "core/exec/kernels/resize.h"
#include "core/exec/kernels/reverse_sequence.h"
#include "core/exec/kernels/rms_normalization.h"
#include "core/exec/kernels/rnn.h"
#include "core/exec/kernels/roi_align.h"
#include "core/exec/kernels/rotary_embedding.h"
#include "core/exec/kernels/scan.h"
#include "core/exec/kernels/scatter_elements.h"
#include "core/exec/kernels/scatter_nd.h"
#include "core/exec/kernels/shape.h"
#include "core/exec/kernels/shrink.h"
#include "core/exec/kernels/slice.h"
#include "core/exec/kernels/softmax.h"
#include "core/exec/kernels/softmax_cross_entropy_loss.h"
#include "core/exec/kernels/split.h"
#include "core/exec/kernels/stft.h"
#include "core/exec/kernels/tensor_scatter.h"
#include "core/exec/kernels/tile.h"
#include "core/exec/kernels/top_k.h"
#include "core/exec/kernels/transpose.h"
#include "core/exec/kernels/trilu.h"
#include "core/exec/kernels/unary_math.h"
#include "core/exec/kernels/unique.h"
#include "core/exec/kernels/variadic.h"
#include "core/exec/kernels/where.h"
#include "core/exec/kernels/window.h"

namespace ql {

namespace {

constexpr int kLatest = 99;

// One row per (op, opset range). Keep rows sorted by op type, the default domain first.
const KernelRegistration kKernels[] = {
    {"", "Abs", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Acos", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Acosh", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Add", 7, kLatest, &make<ArithmeticKernel>},
    {"", "And", 7, kLatest, &make<LogicalKernel>},
    {"", "ArgMax", 1, kLatest, &make<ArgExtremeKernel>},
    {"", "ArgMin", 1, kLatest, &make<ArgExtremeKernel>},
    {"", "Asin", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Asinh", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Atan", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Atanh", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Attention", 23, kLatest, &make<AttentionKernel>},
    {"", "AveragePool", 7, kLatest, &make<AveragePoolKernel>},
    {"", "BatchNormalization", 9, kLatest, &make<BatchNormalizationKernel>},
    {"", "BitShift", 11, kLatest, &make<BitShiftKernel>},
    {"", "BlackmanWindow", 17, kLatest, &make<WindowKernel>},
    {"", "Cast", 6, kLatest, &make<CastKernel>},
    {"", "CastLike", 15, kLatest, &make<CastKernel>},
    {"", "Ceil", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Celu", 12, kLatest, &make<ActivationKernel>},
    {"", "Clip", 6, kLatest, &make<ClipKernel>},
    {"", "Compress", 9, kLatest, &make<CompressKernel>},
    {"", "Concat", 4, kLatest, &make<ConcatKernel>},
    {"", "Constant", 1, kLatest, &make<ConstantKernel>},
    {"", "ConstantOfShape", 9, kLatest, &make<ConstantOfShapeKernel>},
    {"", "Conv", 1, kLatest, &make<ConvKernel>},
    {"", "ConvInteger", 10, kLatest, &make<ConvIntegerKernel>},
    {"", "ConvTranspose", 1, kLatest, &make<ConvTransposeKernel>},
    {"", "Cos", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Cosh", 9, kLatest, &make<UnaryMathKernel>},
    {"", "CumSum", 11, kLatest, &make<CumSumKernel>},
    {"", "DFT", 17, kLatest, &make<DftKernel>},
    {"", "DeformConv", 19, kLatest, &make<DeformConvKernel>},
    {"", "DepthToSpace", 1, kLatest, &make<DepthToSpaceKernel>},
    {"", "DequantizeLinear", 10, kLatest, &make<QuantizeLinearKernel>},
    {"", "Det", 11, kLatest, &make<DetKernel>},
    {"", "Div", 7, kLatest, &make<ArithmeticKernel>},
    {"", "Dropout", 7, kLatest, &make<DropoutKernel>},
    {"", "DynamicQuantizeLinear", 11, kLatest, &make<DynamicQuantizeLinearKernel>},
    {"", "Einsum", 12, kLatest, &make<EinsumKernel>},
    {"", "Elu", 6, kLatest, &make<ActivationKernel>},
    {"", "Equal", 7, kLatest, &make<ComparisonKernel>},
    {"", "Erf", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Exp", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Expand", 8, kLatest, &make<ExpandKernel>},
    {"", "EyeLike", 9, kLatest, &make<EyeLikeKernel>},
    {"", "Flatten", 1, kLatest, &make<FlattenKernel>},
    {"", "Floor", 6, kLatest, &make<UnaryMathKernel>},
    {"", "GRU", 7, kLatest, &make<GruKernel>},
    {"", "Gather", 1, kLatest, &make<GatherKernel>},
    {"", "GatherElements", 11, kLatest, &make<GatherElementsKernel>},
    {"", "GatherND", 11, kLatest, &make<GatherNDKernel>},
    {"", "Gelu", 20, kLatest, &make<ActivationKernel>},
    {"", "Gemm", 6, kLatest, &make<GemmKernel>},
    {"", "GlobalAveragePool", 1, kLatest, &make<GlobalPoolKernel>},
    {"", "GlobalLpPool", 1, kLatest, &make<LpPoolKernel>},
    {"", "GlobalMaxPool", 1, kLatest, &make<GlobalPoolKernel>},
    {"", "Greater", 7, kLatest, &make<ComparisonKernel>},
    {"", "GreaterOrEqual", 12, kLatest, &make<ComparisonKernel>},
    {"", "GridSample", 16, kLatest, &make<GridSampleKernel>},
    {"", "GroupNormalization", 18, kLatest, &make<GroupNormalizationKernel>},
    {"", "HammingWindow", 17, kLatest, &make<WindowKernel>},
    {"", "HannWindow", 17, kLatest, &make<WindowKernel>},
    {"", "HardSigmoid", 6, kLatest, &make<ActivationKernel>},
    {"", "HardSwish", 14, kLatest, &make<ActivationKernel>},
    {"", "Hardmax", 1, kLatest, &make<SoftmaxKernel>},
    {"", "Identity", 1, kLatest, &make<IdentityKernel>},
    {"", "If", 1, kLatest, &make<IfKernel>},
    {"", "ImageScaler", 1, kLatest, &make<ImageScalerKernel>},
    {"", "InstanceNormalization", 6, kLatest, &make<InstanceNormalizationKernel>},
    {"", "IsInf", 10, kLatest, &make<IsInfNanKernel>},
    {"", "IsNaN", 9, kLatest, &make<IsInfNanKernel>},
    {"", "LRN", 1, kLatest, &make<LrnKernel>},
    {"", "LSTM", 7, kLatest, &make<LstmKernel>},
    {"", "LayerNormalization", 17, kLatest, &make<LayerNormalizationKernel>},
    {"", "LeakyRelu", 6, kLatest, &make<ActivationKernel>},
    {"", "Less", 7, kLatest, &make<ComparisonKernel>},
    {"", "LessOrEqual", 12, kLatest, &make<ComparisonKernel>},
    {"", "Log", 6, kLatest, &make<UnaryMathKernel>},
    {"", "LogSoftmax", 1, kLatest, &make<SoftmaxKernel>},
    {"", "Loop", 1, kLatest, &make<LoopKernel>},
    {"", "LpNormalization", 1, kLatest, &make<LpNormalizationKernel>},
    {"", "LpPool", 1, kLatest, &make<LpPoolKernel>},
    {"", "MatMul", 1, kLatest, &make<MatMulKernel>},
    {"", "MatMulInteger", 10, kLatest, &make<MatMulIntegerKernel>},
    {"", "Max", 6, kLatest, &make<VariadicKernel>},
    {"", "MaxPool", 1, kLatest, &make<MaxPoolKernel>},
    {"", "MaxUnpool", 9, kLatest, &make<MaxUnpoolKernel>},
    {"", "Mean", 6, kLatest, &make<VariadicKernel>},
    {"", "MeanVarianceNormalization", 9, kLatest, &make<MeanVarianceNormalizationKernel>},
    {"", "Min", 6, kLatest, &make<VariadicKernel>},
    {"", "Mish", 18, kLatest, &make<ActivationKernel>},
    {"", "Mod", 10, kLatest, &make<ModKernel>},
    {"", "Mul", 7, kLatest, &make<ArithmeticKernel>},
    {"", "Neg", 6, kLatest, &make<UnaryMathKernel>},
    {"", "NegativeLogLikelihoodLoss", 12, kLatest, &make<NegativeLogLikelihoodLossKernel>},
    {"", "NonMaxSuppression", 10, kLatest, &make<NonMaxSuppressionKernel>},
    {"", "NonZero", 9, kLatest, &make<NonZeroKernel>},
    {"", "Not", 1, kLatest, &make<LogicalKernel>},
    {"", "OneHot", 9, kLatest, &make<OneHotKernel>},
    {"", "Or", 7, kLatest, &make<LogicalKernel>},
    {"", "PRelu", 7, kLatest, &make<PReluKernel>},
    {"", "Pad", 2, kLatest, &make<PadKernel>},
    {"", "ParametricSoftplus", 1, kLatest, &make<ActivationKernel>},
    {"", "Pow", 7, kLatest, &make<PowKernel>},
    {"", "QLinearConv", 10, kLatest, &make<QLinearConvKernel>},
    {"", "QLinearMatMul", 10, kLatest, &make<QLinearMatMulKernel>},
    {"", "QuantizeLinear", 10, kLatest, &make<QuantizeLinearKernel>},
    {"", "RMSNormalization", 23, kLatest, &make<RmsNormalizationKernel>},
    {"", "RNN", 7, kLatest, &make<RnnKernel>},
    {"", "RandomNormal", 1, kLatest, &make<RandomKernel>},
    {"", "RandomNormalLike", 1, kLatest, &make<RandomKernel>},
    {"", "RandomUniform", 1, kLatest, &make<RandomKernel>},
    {"", "RandomUniformLike", 1, kLatest, &make<RandomKernel>},
    {"", "Range", 11, kLatest, &make<RangeKernel>},
    {"", "Reciprocal", 6, kLatest, &make<UnaryMathKernel>},
    {"", "ReduceL1", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceL2", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceLogSum", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceLogSumExp", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceMax", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceMean", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceMin", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceProd", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceSum", 1, kLatest, &make<ReduceKernel>},
    {"", "ReduceSumSquare", 1, kLatest, &make<ReduceKernel>},
    {"", "Relu", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Reshape", 5, kLatest, &make<ReshapeKernel>},
    {"", "Resize", 10, kLatest, &make<ResizeKernel>},
    {"", "ReverseSequence", 10, kLatest, &make<ReverseSequenceKernel>},
    {"", "RoiAlign", 10, kLatest, &make<RoiAlignKernel>},
    {"", "RotaryEmbedding", 23, kLatest, &make<RotaryEmbeddingKernel>},
    {"", "Round", 11, kLatest, &make<UnaryMathKernel>},
    {"", "STFT", 17, kLatest, &make<StftKernel>},
    {"", "ScaledTanh", 1, kLatest, &make<ActivationKernel>},
    {"", "Scan", 8, kLatest, &make<ScanKernel>},
    {"", "Scatter", 9, 10, &make<ScatterElementsKernel>},
    {"", "ScatterElements", 11, kLatest, &make<ScatterElementsKernel>},
    {"", "ScatterND", 11, kLatest, &make<ScatterNDKernel>},
    {"", "Selu", 6, kLatest, &make<ActivationKernel>},
    {"", "Shape", 1, kLatest, &make<ShapeKernel>},
    {"", "Shrink", 9, kLatest, &make<ShrinkKernel>},
    {"", "Sigmoid", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Sign", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Sin", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Sinh", 9, kLatest, &make<UnaryMathKernel>},
    {"", "Size", 1, kLatest, &make<SizeKernel>},
    {"", "Slice", 1, kLatest, &make<SliceKernel>},
    {"", "Softmax", 1, kLatest, &make<SoftmaxKernel>},
    {"", "SoftmaxCrossEntropyLoss", 12, kLatest, &make<SoftmaxCrossEntropyLossKernel>},
    {"", "Softplus", 1, kLatest, &make<UnaryMathKernel>},
    {"", "Softsign", 1, kLatest, &make<UnaryMathKernel>},
    {"", "SpaceToDepth", 1, kLatest, &make<SpaceToDepthKernel>},
    {"", "Split", 2, kLatest, &make<SplitKernel>},
    {"", "Sqrt", 6, kLatest, &make<UnaryMathKernel>},
    {"", "Squeeze", 1, kLatest, &make<SqueezeKernel>},
    {"", "Sub", 7, kLatest, &make<ArithmeticKernel>},
    {"", "Sum", 6, kLatest, &make<VariadicKernel>},
    {"", "Tan", 7, kLatest, &make<UnaryMathKernel>},
    {"", "Tanh", 6, kLatest, &make<UnaryMathKernel>},
    {"", "TensorScatter", 24, kLatest, &make<TensorScatterKernel>},
    {"", "ThresholdedRelu", 10, kLatest, &make<ActivationKernel>},
    {"", "Tile", 6, kLatest, &make<TileKernel>},
    {"", "TopK", 1, kLatest, &make<TopKKernel>},
    {"", "Transpose", 1, kLatest, &make<TransposeKernel>},
    {"", "Trilu", 14, kLatest, &make<TriluKernel>},
    {"", "Unique", 11, kLatest, &make<UniqueKernel>},
    {"", "Unsqueeze", 1, kLatest, &make<UnsqueezeKernel>},
    {"", "Upsample", 7, 10, &make<ResizeKernel>},
    {"", "Where", 9, kLatest, &make<WhereKernel>},
    {"", "Xor", 7, kLatest, &make<LogicalKernel>},
    // ONNX Runtime's contrib ops of its QOperator quantization format.
    {"com.microsoft", "QLinearAdd", 1, kLatest, &make<QLinearBinaryKernel>},
    {"com.microsoft", "QLinearMul", 1, kLatest, &make<QLinearBinaryKernel>},
    {"com.microsoft", "QLinearSigmoid", 1, kLatest, &make<QLinearLookupKernel>},
    {"com.microsoft", "QLinearLeakyRelu", 1, kLatest, &make<QLinearLookupKernel>},
    {"com.microsoft", "QLinearGlobalAveragePool", 1, kLatest, &make<QLinearGlobalAveragePoolKernel>},
    {"com.microsoft", "QLinearConcat", 1, kLatest, &make<QLinearConcatKernel>},
};

}  // namespace

std::span<const KernelRegistration> kernelRegistrations() {
    return kKernels;
}

const KernelRegistration* findKernel(std::string_view domain, std::string_view opType, int64_t opset) {
    const std::string_view d = domain == "ai.onnx" ? std::string_view{} : domain;
    for (const auto& k : kKernels)
        if (k.domain == d && k.opType == opType && opset >= k.sinceVersion && opset <= k.untilVersion) return &k;
    return nullptr;
}

}  // namespace ql
