#pragma once
// Simulates a precision plan on the CPU executor, as TensorRT would run it:
//   INT8 nodes (effective precision): activation inputs are quantize-dequantized per tensor with
//     scale = amax / 127 from the calibration, weights per output channel (axis from weight_ranges.h),
//     exactly as an ONNX QuantizeLinear/DequantizeLinear pair (zero point 0, ties to even, [-128, 127]).
//     Biases and other constants stay float.
//   FP16 nodes: float inputs (weights included) and outputs are rounded to half.
//   FP32 nodes: untouched.
// Activation inputs: input 0 of Conv/ConvTranspose/Gemm/MatMul (and input 1 of Gemm/MatMul when it is not a
// constant); every non-constant float input of other INT8 ops, except an epilogue (Relu, LeakyRelu, Clip,
// BatchNormalization) fused into the INT8 layer producing its input: TensorRT quantizes after the epilogue.
#include <map>
#include <memory>
#include <vector>

#include "core/exec/executor.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

// Quantize-dequantize into a fresh float tensor (`x` is not modified); amax 0 gives zeros.
Tensor fakeQuantizePerTensor(const Tensor& x, float amax);
Tensor fakeQuantizePerChannel(const Tensor& x, int64_t axis, const std::vector<float>& amax);
Tensor roundToHalf(const Tensor& x);

class QuantSimulator final : public NodeInterceptor {
public:
    // `graph` and `plan` must outlive the simulator. Fails when an INT8 node reads an activation the calibration has no
    // amax for (naming it).
    static Result<std::unique_ptr<QuantSimulator>> create(const Graph& graph, const PrecisionPlan& plan,
                                                          const CalibrationResult& calibration);

    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override;
    Status afterNode(const Node& node, std::vector<Tensor>& outputs) override;

private:
    enum class InputRule { Keep, Activation, Weight, Half };
    struct NodeRule {
        Precision precision = Precision::Fp32;
        std::vector<InputRule> inputs;
        std::vector<float> activationAmax;  // per input, for InputRule::Activation
    };
    QuantSimulator(const Graph& graph, const PrecisionPlan& plan) : mGraph(graph), mPlan(plan) {}
    Status prepare(const CalibrationResult& calibration);
    Result<Tensor> quantizedWeight(const Node& node, size_t input, const Tensor& weight);

    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    std::vector<NodeRule> mRules;                                              // per node
    std::map<std::pair<NodeId, std::string>, std::vector<float>> mWeightAmax;  // (layer, initializer)
    std::map<std::pair<NodeId, size_t>, Tensor> mQuantizedWeights;             // computed on first use
};

}  // namespace ql
