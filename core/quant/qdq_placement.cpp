#include "core/quant/qdq_placement.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "core/common/disjoint_sets.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"
#include "core/quant/batchnorm_fold.h"
#include "core/quant/weight_ranges.h"

namespace ql {
namespace {

// TRT-INT8-CAPABLE: pooling runs INT8 between a DequantizeLinear on its input and the next QuantizeLinear.
bool isPooling(const Node& node) {
    return node.domain.empty() && (node.opType == "AveragePool" || node.opType == "GlobalAveragePool" ||
                                   node.opType == "MaxPool" || node.opType == "GlobalMaxPool");
}

// The constant behind `v`, following Identity nodes (an exported model may hand its weights through them;
// graph preparation folds them away, so the placement must see the same constant before and after it), or
// kNoId when `v` is computed from the model's inputs.
ValueId constantSource(const Graph& graph, ValueId v) {
    while (v != kNoId && !isConstant(graph, v)) {
        const NodeId producer = graph.value(v).producer;
        if (producer == kNoId) return kNoId;
        const Node& node = graph.node(producer);
        if (!node.domain.empty() || node.opType != "Identity" || node.inputs.empty()) return kNoId;
        v = node.inputs[0];
    }
    return v;
}

// A constant's values as a float tensor of its shape (initializer dims, or the inferred shape of a Constant).
Result<Tensor> constantTensor(const Graph& graph, ValueId v) {
    const std::optional<std::vector<float>> values = constantFloats(graph, v);
    Shape shape;
    if (const Initializer* init = graph.initializerOf(v)) {
        shape = init->dims;
    } else {
        for (const Dim& d : graph.value(v).type.dims) shape.push_back(d.size);
    }
    if (!values || static_cast<int64_t>(values->size()) != shapeElementCount(shape))
        return invalidArgument("weight '" + graph.value(v).name +
                               "' cannot be read as a float constant of known shape");
    return Tensor::fromVector(DataType::Float, shape, *values);
}

bool isWeighted(const Node& node) {
    return node.domain.empty() && (node.opType == "Conv" || node.opType == "ConvTranspose" || node.opType == "Gemm" ||
                                   node.opType == "MatMul");
}

class Placer {
public:
    Placer(const Graph& graph, std::vector<Precision> precisions, const AmaxByName& amax, const QdqOptions& options)
        : mGraph(graph), mPrecisions(std::move(precisions)), mAmax(amax), mOptions(options) {
        buildScaleGroups();
    }

    Result<QdqPlacement> run() {
        mPlacement.layers.resize(mGraph.nodes().size());
        for (const Node& node : mGraph.nodes()) {
            auto& decision = mPlacement.layers[static_cast<size_t>(node.id)];
            decision = {node.name, node.opType, precisionOf(node), "", ""};
            if (isWeighted(node) && decision.precision == Precision::Int8) QL_RETURN_IF_ERROR(placeWeighted(node));
        }
        for (const Node& node : mGraph.nodes()) {
            if (node.opType == "Add" && precisionOf(node) == Precision::Int8) placeResidualAdd(node);
            if (isPooling(node) && precisionOf(node) == Precision::Int8) placePoolingInput(node);
        }
        // A Concat is quantized when its output is read through Q/DQ, which a residual Add after it (BlazeFace's
        // channel padding of the identity) or another Concat places: consumers first, so in reverse graph order.
        for (auto node = mGraph.nodes().rbegin(); node != mGraph.nodes().rend(); ++node)
            if (node->opType == "Concat" && precisionOf(*node) == Precision::Int8) placeConcatInputs(*node);
        return std::move(mPlacement);
    }

private:
    Precision precisionOf(const Node& node) const {
        const auto i = static_cast<size_t>(node.id);
        return i < mPrecisions.size() ? mPrecisions[i] : Precision::Fp32;
    }

    // Every tensor of an INT8 Concat (inputs and output) joins one group whose amax is the largest member's;
    // a float Concat needs no shared scale, so its tensors keep their own. So do an INT8 MaxPool's input and output:
    // TensorRT runs it between the DequantizeLinear before and the QuantizeLinear after, which requantize unless their
    // scales are equal (a calibration method other than minmax gives the two tensors different amax, though max
    // pooling keeps the largest value). Groups that share a tensor (a MaxPool between two INT8 Concats) are one.
    void buildScaleGroups() {
        DisjointSets groups(mGraph.values().size());
        std::vector<bool> grouped(mGraph.values().size(), false);
        for (const Node& node : mGraph.nodes()) {
            const bool maxPool = node.opType == "MaxPool" || node.opType == "GlobalMaxPool";
            if ((node.opType != "Concat" && !maxPool) || !node.domain.empty() || node.outputs.empty() ||
                node.inputs.empty() || node.outputs[0] == kNoId || precisionOf(node) != Precision::Int8)
                continue;
            std::vector<ValueId> members = {node.outputs[0]};
            if (maxPool) {
                members.push_back(node.inputs[0]);
            } else {
                members.insert(members.end(), node.inputs.begin(), node.inputs.end());
                for (ValueId in : node.inputs) addValueKeepingSources(in, members);
            }
            for (ValueId v : members) {
                if (v == kNoId) continue;
                groups.attach(static_cast<size_t>(v), static_cast<size_t>(members[0]));
                grouped[static_cast<size_t>(v)] = true;
            }
        }
        std::unordered_map<size_t, float> rootAmax;
        for (ValueId v = 0; v < static_cast<ValueId>(grouped.size()); ++v)
            if (grouped[static_cast<size_t>(v)])
                if (auto a = rawAmax(v)) {
                    float& amax = rootAmax[groups.root(static_cast<size_t>(v))];
                    amax = std::max(amax, *a);
                }
        for (ValueId v = 0; v < static_cast<ValueId>(grouped.size()); ++v)
            if (grouped[static_cast<size_t>(v)])
                if (auto it = rootAmax.find(groups.root(static_cast<size_t>(v))); it != rootAmax.end())
                    mGroupAmax[v] = it->second;
    }

    // The tensors a Concat input is a MaxPool or a data movement of (BlazeFace pads the pooled identity with zero
    // channels): TensorRT moves the Q across them, so their Q/DQ take the group's scale too, or a requantize kernel
    // sits between them (trt-requantize). Not through a Relu, whose input's negative range is no part of the group.
    void addValueKeepingSources(ValueId v, std::vector<ValueId>& members) const {
        for (int depth = 0; v != kNoId && depth < 8; ++depth) {
            const NodeId p = mGraph.value(v).producer;
            if (p == kNoId) return;
            const Node& producer = mGraph.node(p);
            const bool pool = producer.opType == "MaxPool" || producer.opType == "GlobalMaxPool";
            if (!producer.domain.empty() || producer.inputs.empty() || producer.opType == "Concat" ||
                !(pool || movesData(producer)))
                return;
            v = producer.inputs[0];
            members.push_back(v);
        }
    }

    std::optional<float> rawAmax(ValueId v) const {
        if (v == kNoId) return std::nullopt;
        auto it = mAmax.find(mGraph.value(v).name);
        if (it == mAmax.end()) return mOptions.assumeCalibrated ? std::optional<float>(1.0f) : std::nullopt;
        return it->second;
    }

    std::optional<float> amaxOf(ValueId v) const {
        auto group = mGroupAmax.find(v);
        return group != mGroupAmax.end() ? std::optional<float>(group->second) : rawAmax(v);
    }

    // An activation edge, or nullopt when the tensor has no calibrated amax.
    std::optional<QdqEdge> activationEdge(const Node& node, int32_t input, const std::string& reason) const {
        const ValueId v = node.inputs[static_cast<size_t>(input)];
        auto amax = amaxOf(v);
        if (!amax) return std::nullopt;
        return QdqEdge{node.id, input, v, false, 1, {int8Scale(*amax)}, reason, {}};
    }

    bool constant(ValueId v) const { return constantSource(mGraph, v) != kNoId; }

    Result<QdqEdge> weightEdge(const Node& node, ValueId weight) const {
        if (!mOptions.weightScales) return QdqEdge{node.id, 1, weight, true, 1, {}, "weight", {}};
        auto read = constantTensor(mGraph, constantSource(mGraph, weight));
        if (!read) return read.status().withContext("Node (" + node.name + ") Op (" + node.opType + ")");
        // The export quantizes the weight with a following BatchNormalization folded in, so the scales are
        // the folded weight's on the unfolded model too.
        const auto folded = foldedBatchNorm(mGraph, node);
        const Tensor tensor =
            folded ? scaleByOutputChannel(*read, node, folded->factor, false) : std::move(read).value();
        const bool deconv = node.opType == "ConvTranspose";
        auto axis = weightChannelAxis(node, 1, tensor.rank());
        if (deconv && mOptions.perChannelConvTranspose) axis = mOptions.tensorRtMajor >= 10 ? 1 : 0;
        if (!axis) return internalError("no channel axis for the weight of '" + node.name + "'");
        QL_ASSIGN_OR_RETURN(auto amax, perChannelAmax(tensor, *axis));
        std::string reason = "weight per channel on axis " + std::to_string(*axis);
        if (deconv && !mOptions.perChannelConvTranspose) {
            amax = {*std::max_element(amax.begin(), amax.end())};
            reason = "ConvTranspose weight per tensor (TRT-DECONV-WEIGHT-AXIS)";
        } else if (deconv) {
            reason += " (TensorRT " + std::to_string(mOptions.tensorRtMajor) + ".x ConvTranspose axis)";
        }
        std::vector<float> scales;
        for (float a : amax) scales.push_back(int8Scale(a));
        QdqEdge edge{node.id, 1, weight, true, scales.size() > 1 ? *axis : 1, std::move(scales), reason, {}};
        if (folded) {
            edge.batchNormFold = std::move(folded->factor);
            edge.reason += "; scales of the weight with BatchNormalization '" + mGraph.node(folded->batchNorm).name +
                           "' folded in";
        }
        return edge;
    }

    // Why input `v` of an INT8 layer cannot be quantized, or empty. QuantizeLinear (opset 13) takes FLOAT.
    std::string unquantizable(ValueId v) const {
        if (v == kNoId) return "an input is missing";
        const Value& value = mGraph.value(v);
        const ValueId source = constantSource(mGraph, v);
        const DataType dtype = source != kNoId ? constantDataType(mGraph, source) : value.type.dtype;
        if (dtype != DataType::Float && dtype != DataType::Undefined)
            return "input '" + value.name + "' is " + dataTypeName(dtype) + "; only FLOAT tensors are quantized";
        if (lacksScale(v)) return "input '" + value.name + "' has no calibrated scale (TRT-CALIB-MISSING-SCALE)";
        return {};
    }

    bool lacksScale(ValueId v) const { return !constant(v) && !amaxOf(v); }

    // An INT8 layer that falls back to float because input `v` has no calibrated scale records it.
    void fallBack(LayerDecision& decision, ValueId v, std::string reason) {
        decision.precision = Precision::Fp32;
        decision.reason = std::move(reason);
        if (v != kNoId && lacksScale(v)) decision.unscaledInput = mGraph.value(v).name;
    }

    Status placeWeighted(const Node& node) {
        auto& decision = mPlacement.layers[static_cast<size_t>(node.id)];
        std::vector<QdqEdge> edges;
        for (int32_t input = 0; input < 2 && input < static_cast<int32_t>(node.inputs.size()); ++input) {
            const ValueId v = node.inputs[static_cast<size_t>(input)];
            const bool weight = input == 1 && constant(v);
            std::string problem = unquantizable(v);
            if (problem.empty() && !weight && constant(v)) problem = "its data input is a constant";
            if (!problem.empty()) {
                fallBack(decision, v, std::move(problem));
                return Status::ok();
            }
            if (weight) {
                QL_ASSIGN_OR_RETURN(auto edge, weightEdge(node, v));
                edges.push_back(std::move(edge));
            } else {
                edges.push_back(*activationEdge(node, input, "INT8 layer input"));
            }
        }
        decision.reason = "INT8 weighted layer: inputs quantized, bias float";
        mInt8Layers.insert(node.id);
        for (auto& e : edges) mPlacement.edges.push_back(std::move(e));
        return Status::ok();
    }

    // A BatchNormalization the export folds into its layer counts as that layer; so does the bias Add exporters write
    // after a MatMul (Linear on a 3-D input: MatMul + Add(bias)), which TensorRT fuses into it.
    NodeId layerOf(ValueId v) const {
        const NodeId producer = v == kNoId ? kNoId : mGraph.value(v).producer;
        if (producer == kNoId) return kNoId;
        const Node& node = mGraph.node(producer);
        if (node.opType == "Add" && node.inputs.size() == 2 && constant(node.inputs[0]) != constant(node.inputs[1])) {
            const ValueId data = constant(node.inputs[0]) ? node.inputs[1] : node.inputs[0];
            const NodeId layer = mGraph.value(data).producer;
            if (layer != kNoId && mGraph.node(layer).opType == "MatMul" && mGraph.value(data).consumers.size() == 1)
                return layer;
        }
        const NodeId folding = layerFoldingBatchNorm(mGraph, node);
        return folding != kNoId ? folding : producer;
    }

    bool fromInt8Layer(ValueId v) const {
        const NodeId layer = layerOf(v);
        return layer != kNoId && mInt8Layers.count(layer) != 0;
    }

    // Whether TensorRT can fuse the Add into the INT8 layer behind input `i`: the layer's output goes to the Add alone.
    bool fusesWith(const Node& add, size_t i) const {
        return fromInt8Layer(add.inputs[i]) && mGraph.value(add.inputs[i]).consumers.size() == 1;
    }

    // The input of a residual Add that is not fused: the other one comes from an INT8 layer whose output only the Add
    // reads (a skip tensor is also read by the branch it skips). Both such: the later layer fuses (the branch ends
    // right before the Add), whatever the input order. -1 when neither input can fuse.
    int32_t skipInput(const Node& add) const {
        // The other input of the one that fuses: of two that can, the later layer's.
        const auto skipOf = [&](bool fuses0, bool fuses1) -> int32_t {
            if (fuses0 && fuses1) return layerOf(add.inputs[0]) > layerOf(add.inputs[1]) ? 1 : 0;
            if (fuses0 || fuses1) return fuses0 ? 1 : 0;
            return -1;
        };
        const int32_t skip = skipOf(fusesWith(add, 0), fusesWith(add, 1));
        // Neither output is the Add's alone: the Add still fuses with an INT8 layer.
        return skip >= 0 ? skip : skipOf(fromInt8Layer(add.inputs[0]), fromInt8Layer(add.inputs[1]));
    }

    // TRT-QDQ-RESIDUAL-ADD: quantize the skip input, not the edge from the weighted layer it fuses with.
    void placeResidualAdd(const Node& node) {
        if (node.inputs.size() != 2 || constant(node.inputs[0]) || constant(node.inputs[1])) return;
        const int32_t skip = skipInput(node);
        if (skip < 0) return;
        auto& decision = mPlacement.layers[static_cast<size_t>(node.id)];
        if (auto edge = activationEdge(node, skip, "residual Add skip input (TRT-QDQ-RESIDUAL-ADD)")) {
            mPlacement.edges.push_back(std::move(*edge));
            decision.reason = "residual Add fused with '" + mGraph.node(layerOf(node.inputs[1 - skip])).name +
                              "'; skip input quantized";
        } else {
            decision.reason = "skip input has no calibrated scale: not fused (TRT-CALIB-MISSING-SCALE)";
            decision.unscaledInput = mGraph.value(node.inputs[static_cast<size_t>(skip)]).name;
        }
    }

    bool quantizedAsInput(ValueId v) const {
        return std::any_of(mPlacement.edges.begin(), mPlacement.edges.end(),
                           [&](const QdqEdge& e) { return e.tensor == v && !e.weight; });
    }

    // An INT8 Concat whose output is quantized gets its inputs quantized with the shared scale, so it runs INT8.
    void placeConcatInputs(const Node& node) {
        if (node.outputs.empty() || !quantizedAsInput(node.outputs[0])) return;
        for (int32_t i = 0; i < static_cast<int32_t>(node.inputs.size()); ++i)
            if (!constant(node.inputs[static_cast<size_t>(i)]))
                if (auto edge = activationEdge(node, i, "Concat input, shared scale (TRT-QDQ-CONCAT-SCALES)"))
                    mPlacement.edges.push_back(std::move(*edge));
        mPlacement.layers[static_cast<size_t>(node.id)].reason = "INT8 Concat: inputs share one scale";
    }

    // An INT8 pooling layer reads its input through Q/DQ, so TensorRT runs it in INT8 (TRT-QDQ-PROPAGATION).
    void placePoolingInput(const Node& node) {
        auto& decision = mPlacement.layers[static_cast<size_t>(node.id)];
        if (node.inputs.empty() || constant(node.inputs[0])) return;
        if (auto edge = activationEdge(node, 0, "INT8 pooling input (TRT-QDQ-PROPAGATION)")) {
            mPlacement.edges.push_back(std::move(*edge));
            decision.reason = "INT8 pooling: input quantized";
        } else {
            fallBack(decision, node.inputs[0],
                     "input has no calibrated scale: runs in float (TRT-CALIB-MISSING-SCALE)");
        }
    }

    const Graph& mGraph;
    const std::vector<Precision> mPrecisions;  // by NodeId
    const AmaxByName& mAmax;
    const QdqOptions& mOptions;
    std::unordered_map<ValueId, float> mGroupAmax;
    std::set<NodeId> mInt8Layers;
    QdqPlacement mPlacement;
};

}  // namespace

PrecisionByName effectivePrecisions(const Graph& graph, const PrecisionPlan& plan) {
    PrecisionByName precisions;
    for (const Node& node : graph.nodes())
        if (static_cast<size_t>(node.id) < plan.size()) precisions[node.name] = plan.effective(node.id);
    return precisions;
}

bool placesOwnQdq(const Node& node) {
    return isWeighted(node) || isPooling(node) ||
           (node.domain.empty() && (node.opType == "Add" || node.opType == "Concat"));
}

float int8Scale(float amax) {
    constexpr float kMinAmax = 1e-8f;
    return (std::isfinite(amax) && amax > kMinAmax ? amax : kMinAmax) / 127.0f;
}

Result<AmaxByName> activationAmax(const CalibrationResult& calibration, const PrecisionPlan& plan) {
    AmaxByName amax;
    for (const auto& range : calibration.activations) amax[range.name] = range.amax;
    for (const auto& [tensor, method] : plan.tensorMethods()) {
        const TensorRange* range = calibration.activation(tensor);
        if (!range || !range->amaxByMethod)
            return notFound("the plan calibrates tensor '" + tensor + "' with " + amaxMethodKey(method) +
                            " but the calibration has no per-method amax for it; calibrate again with this model");
        amax[tensor] = range->amaxByMethod->of(method);
    }
    return amax;
}

Result<QdqPlacement> placeQdq(const Graph& graph, const PrecisionByName& precisions, const AmaxByName& amax,
                              const QdqOptions& options) {
    std::vector<Precision> byNode(graph.nodes().size(), Precision::Fp32);
    for (const Node& node : graph.nodes()) {
        const auto it = precisions.find(node.name);
        if (it != precisions.end()) byNode[static_cast<size_t>(node.id)] = it->second;
    }
    return placeQdq(graph, std::move(byNode), amax, options);
}

Result<QdqPlacement> placeQdq(const Graph& graph, std::vector<Precision> precisions, const AmaxByName& amax,
                              const QdqOptions& options) {
    return Placer(graph, std::move(precisions), amax, options).run();
}

}  // namespace ql
