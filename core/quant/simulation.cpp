#include "core/quant/simulation.h"

#include <algorithm>

#include "core/common/half.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/quantize_math.h"
#include "core/quant/batchnorm_fold.h"
#include "core/quant/body_calibration.h"

namespace ql {

Tensor fakeQuantize(const Tensor& x, const std::vector<float>& scales, int64_t axis) {
    std::vector<float> converted;  // only for other dtypes: float tensors are read in place
    if (x.dtype() != DataType::Float || !x.isPlain()) converted = x.toFloats();
    const std::span<const float> in = converted.empty() ? x.span<float>() : std::span<const float>(converted);
    Tensor y(DataType::Float, x.shape());
    float* out = y.data<float>();
    if (scales.size() == 1) {
        for (size_t i = 0; i < in.size(); ++i) out[i] = fakeQuantizeInt8(in[i], scales[0]);
        return y;
    }
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t c = 0; c < s.axis; ++c) {
            const float scale = scales[static_cast<size_t>(c)];
            const int64_t base = (o * s.axis + c) * s.inner;
            for (int64_t i = base; i < base + s.inner; ++i)
                out[i] = fakeQuantizeInt8(in[static_cast<size_t>(i)], scale);
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
                                                               const CalibrationResult& calibration,
                                                               const QdqOptions& options) {
    if (plan.size() != graph.nodes().size())
        return invalidArgument("the precision plan has " + std::to_string(plan.size()) + " nodes but the model has " +
                               std::to_string(graph.nodes().size()) + "; load the plan for this model");
    std::unique_ptr<QuantSimulator> sim(new QuantSimulator(graph));
    QL_RETURN_IF_ERROR(sim->prepare(plan, calibration, options));
    return sim;
}

Status QuantSimulator::prepare(const PrecisionPlan& plan, const CalibrationResult& calibration,
                               const QdqOptions& options) {
    QL_ASSIGN_OR_RETURN(const AmaxByName amax, activationAmax(calibration, plan));
    QL_ASSIGN_OR_RETURN(mPlacement, placeQdq(mGraph, effectivePrecisions(mGraph, plan), amax, options));
    mRules.resize(mGraph.nodes().size());
    for (const Node& node : mGraph.nodes()) {
        NodeRule& rule = mRules[static_cast<size_t>(node.id)];
        rule.precision = mPlacement.layers[static_cast<size_t>(node.id)].precision;
        rule.edges.assign(node.inputs.size(), nullptr);
        const std::string& unscaled = mPlacement.layers[static_cast<size_t>(node.id)].unscaledInput;
        if (!unscaled.empty())
            return invalidArgument(nodeErrorMessage(node, "INT8 input '" + unscaled +
                                                              "' has no range in the calibration; run calibrate "
                                                              "on this model again"));
    }
    for (const QdqEdge& edge : mPlacement.edges)
        mRules[static_cast<size_t>(edge.consumer)].edges[static_cast<size_t>(edge.input)] = &edge;
    return prepareBodies(plan, calibration, options);
}

Status QuantSimulator::prepareBodies(const PrecisionPlan& plan, const CalibrationResult& calibration,
                                     const QdqOptions& options) {
    for (const BodyPlan& planned : plan.bodies()) {
        const std::optional<NodeId> node = mGraph.findNode(planned.node);
        if (!quantizesBody(planned.plan) || !node) continue;
        auto body = std::make_unique<Body>();
        body->node = planned.node;
        body->attribute = planned.attribute;
        QL_ASSIGN_OR_RETURN(
            body->model, buildSubgraphModel(mGraph, mGraph.node(*node), planned.attribute, OuterInitializers::Copied));
        body->calibration = bodyCalibration(calibration, body->model.graph, planned.node, planned.attribute);
        auto simulator = create(body->model.graph, planned.plan, body->calibration, options);
        if (!simulator)
            return Status(
                simulator.status().code(),
                nodeErrorMessage(mGraph.node(*node), "in " + planned.attribute + ": " + simulator.status().message()));
        body->simulator = std::move(simulator).value();
        mBodies.push_back(std::move(body));
    }
    return Status::ok();
}

NodeInterceptor* QuantSimulator::nested(const Node& node, const std::string& attribute, const Graph& body) {
    for (const auto& b : mBodies) {
        if (b->node != node.name || b->attribute != attribute) continue;
        // The run builds the body from the same proto, in the same order: the plan's node ids are the run's.
        if (b->model.graph.nodes().size() == body.nodes().size()) return b->simulator.get();
        mMismatch = nodeErrorMessage(node, "in " + attribute + ": the run built the body with " +
                                               std::to_string(body.nodes().size()) + " nodes, its plan has " +
                                               std::to_string(b->model.graph.nodes().size()));
        return &mFailing;
    }
    return nullptr;
}

const Tensor& QuantSimulator::quantizedWeight(const QdqEdge& edge, const Tensor& weight) {
    const auto key = std::make_pair(edge.consumer, edge.input);
    auto it = mQuantizedWeights.find(key);
    if (it == mQuantizedWeights.end()) {
        const Node& node = mGraph.node(edge.consumer);
        // As exported: the folded weight W * s is quantized; the BatchNormalization still multiplies by s here.
        Tensor quantized =
            edge.batchNormFold.empty()
                ? fakeQuantize(weight, edge.scales, edge.axis)
                : scaleByOutputChannel(fakeQuantize(scaleByOutputChannel(weight, node, edge.batchNormFold, false),
                                                    edge.scales, edge.axis),
                                       node, edge.batchNormFold, true);
        it = mQuantizedWeights.emplace(key, std::move(quantized)).first;
    }
    return it->second;
}

bool QuantSimulator::intercepts(const Node& node) const {
    const NodeRule& rule = mRules[static_cast<size_t>(node.id)];
    return rule.precision == Precision::Fp16 ||
           std::any_of(rule.edges.begin(), rule.edges.end(), [](const QdqEdge* e) { return e != nullptr; });
}

Status QuantSimulator::beforeNode(const Node& node, std::vector<Tensor>& inputs) {
    const NodeRule& rule = mRules[static_cast<size_t>(node.id)];
    for (size_t i = 0; i < inputs.size() && i < rule.edges.size(); ++i) {
        Tensor& t = inputs[i];
        if (t.empty() || t.dtype() != DataType::Float) continue;
        if (rule.precision == Precision::Fp16) {
            t = roundToHalf(t);
        } else if (const QdqEdge* edge = rule.edges[i]; edge && edge->weight) {
            t = quantizedWeight(*edge, t);
        } else if (edge) {
            t = fakeQuantize(t, edge->scales, edge->axis);
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
