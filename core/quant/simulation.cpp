#include "core/quant/simulation.h"

#include <algorithm>
#include <iterator>

#include "core/common/half.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/quantize_math.h"
#include "core/model/constant_values.h"
#include "core/quant/weight_ranges.h"

namespace ql {

namespace {

bool isWeightedLayer(const Node& node) {
    return node.domain.empty() && (node.opType == "Conv" || node.opType == "ConvTranspose" || node.opType == "Gemm" ||
                                   node.opType == "MatMul");
}

// An activation or batch norm fused into the INT8 layer that produces its input: TensorRT quantizes after
// the fused epilogue, so the tensor between the two is never quantized.
bool isFusedEpilogue(const Graph& graph, const PrecisionPlan& plan, const Node& node) {
    static const char* const kEpilogues[] = {"Relu", "LeakyRelu", "Clip", "BatchNormalization"};
    if (!node.domain.empty() ||
        std::find(std::begin(kEpilogues), std::end(kEpilogues), node.opType) == std::end(kEpilogues))
        return false;
    const NodeId producer =
        node.inputs.empty() || node.inputs[0] == kNoId ? kNoId : graph.value(node.inputs[0]).producer;
    return producer != kNoId && plan.effective(producer) == Precision::Int8;
}

// amax 0 (only zeros observed): the range collapses, every value quantizes to 0.
float scaleOf(float amax) {
    return amax / 127.0f;
}

float fakeQuantize(float x, float amax) {
    return amax > 0.0f ? fakeQuantizeInt8(x, scaleOf(amax)) : 0.0f;
}

}  // namespace

Tensor fakeQuantizePerTensor(const Tensor& x, float amax) {
    const std::vector<float> in = x.toFloats();
    Tensor y(DataType::Float, x.shape());
    float* out = y.data<float>();
    for (size_t i = 0; i < in.size(); ++i) out[i] = fakeQuantize(in[i], amax);
    return y;
}

Tensor fakeQuantizePerChannel(const Tensor& x, int64_t axis, const std::vector<float>& amax) {
    const std::vector<float> in = x.toFloats();
    Tensor y(DataType::Float, x.shape());
    float* out = y.data<float>();
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t c = 0; c < s.axis; ++c) {
            const float a = amax[static_cast<size_t>(c)];
            const int64_t base = (o * s.axis + c) * s.inner;
            for (int64_t i = base; i < base + s.inner; ++i) out[i] = fakeQuantize(in[static_cast<size_t>(i)], a);
        }
    return y;
}

Tensor roundToHalf(const Tensor& x) {
    Tensor y(DataType::Float, x.shape());
    const float* in = x.data<float>();
    float* out = y.data<float>();
    for (int64_t i = 0; i < x.elementCount(); ++i) out[i] = halfToFloat(floatToHalf(in[i]));
    return y;
}

Result<std::unique_ptr<QuantSimulator>> QuantSimulator::create(const Graph& graph, const PrecisionPlan& plan,
                                                               const CalibrationResult& calibration) {
    if (plan.size() != graph.nodes().size())
        return invalidArgument("the precision plan has " + std::to_string(plan.size()) + " nodes but the model has " +
                               std::to_string(graph.nodes().size()) + "; load the plan for this model");
    std::unique_ptr<QuantSimulator> sim(new QuantSimulator(graph, plan));
    QL_RETURN_IF_ERROR(sim->prepare(calibration));
    return sim;
}

Status QuantSimulator::prepare(const CalibrationResult& calibration) {
    std::unordered_map<std::string, float> activationAmax;
    for (const TensorRange& r : calibration.activations) activationAmax[r.name] = r.amax;
    for (const WeightRange& w : calibration.weights) mWeightAmax[{w.layer, w.name}] = w.amax;
    mRules.resize(mGraph.nodes().size());
    for (const Node& node : mGraph.nodes()) {
        NodeRule& rule = mRules[static_cast<size_t>(node.id)];
        rule.precision = mPlan.effective(node.id);
        rule.inputs.assign(node.inputs.size(), InputRule::Keep);
        rule.activationAmax.assign(node.inputs.size(), 0.0f);
        if (rule.precision == Precision::Fp32) continue;
        if (rule.precision == Precision::Int8 && isFusedEpilogue(mGraph, mPlan, node)) continue;
        const bool weighted = isWeightedLayer(node);
        for (size_t i = 0; i < node.inputs.size(); ++i) {
            const ValueId in = node.inputs[i];
            if (in == kNoId) continue;
            const bool constant = isConstant(mGraph, in);
            if (rule.precision == Precision::Fp16) {
                rule.inputs[i] = InputRule::Half;
                continue;
            }
            if (weighted && i >= 2) continue;  // bias / C stay float
            if (weighted && i == 1 && constant) {
                rule.inputs[i] = InputRule::Weight;
                continue;
            }
            if (constant) continue;  // shapes, indices, constant operands
            const std::string& name = mGraph.value(in).name;
            const auto found = activationAmax.find(name);
            if (found == activationAmax.end()) {
                const DataType dtype = mGraph.value(in).type.dtype;
                if (dtype != DataType::Float && dtype != DataType::Undefined) continue;  // not a float activation
                return invalidArgument(nodeErrorMessage(node, "INT8 input '" + name +
                                                                  "' has no range in the calibration; run calibrate "
                                                                  "on this model again"));
            }
            rule.inputs[i] = InputRule::Activation;
            rule.activationAmax[i] = found->second;
        }
    }
    return Status::ok();
}

Result<Tensor> QuantSimulator::quantizedWeight(const Node& node, size_t input, const Tensor& weight) {
    const auto key = std::make_pair(node.id, input);
    if (auto it = mQuantizedWeights.find(key); it != mQuantizedWeights.end()) return it->second;
    const std::optional<int64_t> axis = weightChannelAxis(node, input, weight.rank());
    if (!axis)
        return invalidArgument(
            nodeErrorMessage(node, "weight of rank " + std::to_string(weight.rank()) + " has no output-channel axis"));
    std::vector<float> amax;
    if (auto it = mWeightAmax.find({node.id, mGraph.value(node.inputs[input]).name}); it != mWeightAmax.end()) {
        amax = it->second;
    } else {
        QL_ASSIGN_OR_RETURN(amax, perChannelAmax(weight, *axis));
    }
    if (static_cast<int64_t>(amax.size()) != weight.dim(static_cast<size_t>(*axis)))
        return invalidArgument(nodeErrorMessage(node, "the calibration has " + std::to_string(amax.size()) +
                                                          " channel ranges for weight '" +
                                                          mGraph.value(node.inputs[input]).name + "' of shape " +
                                                          shapeString(weight.shape()) + "; calibrate again"));
    Tensor q = fakeQuantizePerChannel(weight, *axis, amax);
    mQuantizedWeights.emplace(key, q);
    return q;
}

Status QuantSimulator::beforeNode(const Node& node, std::vector<Tensor>& inputs) {
    const NodeRule& rule = mRules[static_cast<size_t>(node.id)];
    for (size_t i = 0; i < inputs.size() && i < rule.inputs.size(); ++i) {
        Tensor& t = inputs[i];
        if (t.empty() || t.dtype() != DataType::Float) continue;
        switch (rule.inputs[i]) {
            case InputRule::Keep:
                break;
            case InputRule::Activation:
                t = fakeQuantizePerTensor(t, rule.activationAmax[i]);
                break;
            case InputRule::Weight: {
                QL_ASSIGN_OR_RETURN(t, quantizedWeight(node, i, t));
                break;
            }
            case InputRule::Half:
                t = roundToHalf(t);
                break;
        }
    }
    return Status::ok();
}

Status QuantSimulator::afterNode(const Node& node, std::vector<Tensor>& outputs) {
    if (mRules[static_cast<size_t>(node.id)].precision != Precision::Fp16) return Status::ok();
    for (Tensor& t : outputs)
        if (!t.empty() && t.dtype() == DataType::Float) t = roundToHalf(t);
    return Status::ok();
}

}  // namespace ql
