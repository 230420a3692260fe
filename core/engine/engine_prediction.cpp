#include "core/engine/engine_prediction.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "core/engine/engine_layer_forms.h"
#include "core/engine/prediction_groups.h"
#include "core/export/qdq_import.h"
#include "core/model/constant_values.h"
#include "core/model/fp16_form.h"

namespace ql {

using prediction::Group;
using prediction::Groups;

const char* predictedKindName(PredictedKind kind) {
    switch (kind) {
        case PredictedKind::Convolution:
            return "convolution";
        case PredictedKind::Deconvolution:
            return "deconvolution";
        case PredictedKind::Gemm:
            return "gemm";
        case PredictedKind::Attention:
            return "attention";
        case PredictedKind::Pooling:
            return "pooling";
        case PredictedKind::Pointwise:
            return "pointwise";
        case PredictedKind::Normalization:
            return "normalization";
        case PredictedKind::Softmax:
            return "softmax";
        case PredictedKind::Reduce:
            return "reduce";
        case PredictedKind::Kgen:
            return "kgen";
        case PredictedKind::ShapeCall:
            return "shape_call";
        case PredictedKind::Shuffle:
            return "shuffle";
        case PredictedKind::Resize:
            return "resize";
        case PredictedKind::Slice:
            return "slice";
        case PredictedKind::Padding:
            return "padding";
        case PredictedKind::Gather:
            return "gather";
        case PredictedKind::Reformat:
            return "reformat";
        case PredictedKind::Other:
            break;
    }
    return "other";
}

const char* engineLayoutName(EngineLayout layout) {
    switch (layout) {
        case EngineLayout::Chw4:
            return "chw4";
        case EngineLayout::Chw32:
            return "chw32";
        case EngineLayout::Hwc4:
            return "hwc4";
        case EngineLayout::Hwc8:
            return "hwc8";
        case EngineLayout::Linear:
            break;
    }
    return "linear";
}

namespace {

constexpr std::array<const char*, kCostClassCount> kCostClassNames = {
    "convolution", "depthwise",     "gemm",     "attention", "pooling",
    "pointwise",   "normalization", "reformat", "shuffle",   "shape_call"};

}  // namespace

const char* costClassName(CostClass cls) {
    return kCostClassNames[static_cast<size_t>(cls)];
}

std::optional<CostClass> parseCostClass(const std::string& name) {
    for (size_t i = 0; i < kCostClassNames.size(); ++i)
        if (name == kCostClassNames[i]) return static_cast<CostClass>(i);
    return std::nullopt;
}

size_t EnginePrediction::reformatCount() const {
    return static_cast<size_t>(std::count_if(layers.begin(), layers.end(), [](const PredictedLayer& layer) {
        return layer.kind == PredictedKind::Reformat;
    }));
}

namespace {

using prediction::bytesPerElement;
using prediction::channels;
using prediction::convolutionLayout;
using prediction::costClassOf;
using prediction::Form;
using prediction::isCompute;
using prediction::keepsLayout;
using prediction::naturalLayout;
using prediction::precisionOfType;
using prediction::roundUp;
using prediction::writesReadersPrecision;

class Wiring {
public:
    Wiring(const Graph& graph, const PrecisionPlan& plan, const Groups& groups, EnginePrediction& out)
        : mGraph(graph), mPlan(plan), mGroups(groups), mOut(out), mExplicitQuantization(hasQdqNodes(graph)) {}

    void run() {
        std::vector<std::vector<PredictedLayer>> before(mGroups.groups.size()), after(mGroups.groups.size());
        for (size_t g = 0; g < mGroups.groups.size(); ++g) {
            mCurrent = g;
            mBefore = &before[g];
            mLayers.push_back(layerOf(mGroups.groups[g]));
        }
        graphOutputs(after);
        // Execution order: each layer's input reformats, the layer, its output reformats.
        std::vector<size_t> position(mLayers.size());
        for (size_t g = 0; g < mLayers.size(); ++g) {
            for (PredictedLayer& r : before[g]) mOut.layers.push_back(std::move(r));
            position[g] = mOut.layers.size();
            mOut.layers.push_back(std::move(mLayers[g]));
            for (PredictedLayer& r : after[g]) mOut.layers.push_back(std::move(r));
        }
        for (PredictedLayer& layer : mOut.layers)
            if (layer.feeds) layer.feeds = position[*layer.feeds];
    }

private:
    EnginePrecision computePrecision(const Group& group) const {
        if (group.kind == PredictedKind::ShapeCall) return EnginePrecision::Int32;
        if (quantizedAfterwards(group)) return EnginePrecision::Int8;
        return group.anchor == kNoId ? EnginePrecision::Fp32
                                     : prediction::enginePrecisionOf(mPlan.effective(group.anchor));
    }

    // A MaxPool read only through QuantizeLinear nodes runs INT8 (prediction::quantizedAfterwards), fused into the
    // convolution before it when that one is INT8 (TREx's QAT ResNet-18 with quantized residuals: "conv1 +
    // QuantizeLinear_7 + Conv_9 + MaxPool_12", INT8 out).
    bool quantizedAfterwards(const Group& group) const {
        return group.kind == PredictedKind::Pooling && group.anchor != kNoId && quantizedAfterwards(group.anchor);
    }
    bool quantizedAfterwards(NodeId n) const {
        return mExplicitQuantization && prediction::quantizedAfterwards(mGraph, mGraph.node(n));
    }

    // The precision `group` reads a value in through its node `reader`. A convolution computes in its anchor's
    // precision, but a node fused after it (the residual Add) whose plan precision is another float reads that one:
    // a QAT ResNet with its residuals left unquantized runs INT8 convolutions whose Add takes an FP16 identity
    // (TREx's A100 resnet-qat engine).
    EnginePrecision readPrecision(const Group& group, NodeId reader) const {
        const EnginePrecision compute = computePrecision(group);
        if (!fusedFloatNode(group, reader)) return compute;
        return prediction::enginePrecisionOf(mPlan.effective(reader));
    }

    bool fusedFloatNode(const Group& group, NodeId node) const {
        // Explicit quantization only: with calibrated ranges (implicit INT8) TensorRT runs the whole fusion in INT8.
        if (!mExplicitQuantization) return false;
        if (group.kind != PredictedKind::Convolution && group.kind != PredictedKind::Deconvolution) return false;
        if (node == kNoId || node == group.anchor || computePrecision(group) != EnginePrecision::Int8) return false;
        if (quantizedAfterwards(node)) return false;  // the MaxPool of a ConvActPool layer (prediction_groups.cpp)
        const EnginePrecision own = prediction::enginePrecisionOf(mPlan.effective(node));
        return own != EnginePrecision::Int8 && isCompute(own);
    }

    int64_t elements(ValueId v) {
        if (v == kNoId) return 0;
        const TensorType& type = mGraph.value(v).type;
        if (!type.hasShape) {
            mOut.approximateShapes = true;
            return 1;
        }
        int64_t n = 1;
        for (const Dim& d : type.dims) {
            if (!d.known()) mOut.approximateShapes = true;
            n *= d.known() ? std::max<int64_t>(d.size, 1) : 1;
        }
        return n;
    }

    bool inGroup(const Group& group, NodeId n) const {
        return n != kNoId && mGroups.groupOf[static_cast<size_t>(n)] == static_cast<int>(mCurrent) &&
               std::find(group.nodes.begin(), group.nodes.end(), n) != group.nodes.end();
    }

    // The values whose producing layers write `v`: behind aliases, and every input of a Concat (a junction).
    void sources(ValueId v, std::vector<ValueId>& out, int depth = 0) const {
        if (v == kNoId || depth > 32) return;
        const NodeId p = mGraph.value(v).producer;
        if (p != kNoId && mGroups.live[static_cast<size_t>(p)]) {
            const Node& node = mGraph.node(p);
            if (mGroups.alias[static_cast<size_t>(p)])
                return sources(node.inputs.empty() ? kNoId : node.inputs[0], out, depth + 1);
            if (mGroups.junction[static_cast<size_t>(p)]) {
                for (ValueId in : node.inputs) sources(in, out, depth + 1);
                return;
            }
        }
        const bool graphInput = mGraph.value(v).isGraphInput && mGraph.value(v).initializer < 0;
        if ((p != kNoId && mGroups.live[static_cast<size_t>(p)]) || graphInput) out.push_back(v);
    }

    // What a value is as its producer wrote it (a graph input: its declared type, linear).
    Form formOf(ValueId source) const {
        if (const auto it = mForms.find(source); it != mForms.end()) return it->second;
        return {precisionOfType(mGraph.value(source).type.dtype), EngineLayout::Linear};
    }

    struct Reader {
        int group = -1;
        NodeId node = kNoId;  // the node of the group that reads the value
    };

    // The layers reading `v` (behind aliases and Concats), and whether it reaches a graph output.
    void readers(ValueId v, std::vector<Reader>& out, bool& output, int depth = 0) const {
        if (v == kNoId || depth > 32) return;
        output = output || mGraph.value(v).isGraphOutput;
        for (NodeId c : mGraph.value(v).consumers) {
            const size_t i = static_cast<size_t>(c);
            if (!mGroups.live[i]) continue;
            if (mGroups.alias[i] || mGroups.junction[i]) {
                if (!mGraph.node(c).outputs.empty()) readers(mGraph.node(c).outputs[0], out, output, depth + 1);
            } else if (mGroups.groupOf[i] >= 0 &&
                       std::none_of(out.begin(), out.end(), [&](const Reader& r) { return r.node == c; })) {
                out.push_back({mGroups.groupOf[i], c});
            }
        }
    }

    Form wantedInput(const Group& group, const Form& have, ValueId value, NodeId reader) const {
        const EnginePrecision precision = computePrecision(group);
        if (fusedFloatNode(group, reader))  // in the convolution's layout (FP16 32-wide vectors in the A100 report)
            return {readPrecision(group, reader), convolutionLayout(precision, channels(mGraph, value))};
        if (keepsLayout(group))
            return {precision, have.precision == precision ? have.layout : naturalLayout(precision)};
        switch (group.kind) {
            case PredictedKind::Convolution:
            case PredictedKind::Deconvolution:
                return {precision, convolutionLayout(precision, channels(mGraph, value))};
            case PredictedKind::Gemm:
                if (group.region < 0)  // 8.x: a 1x1 convolution; INT8 reads 4-wide vectors (resnet50 8.6)
                    return {precision,
                            precision == EnginePrecision::Int8 ? EngineLayout::Chw4 : convolutionLayout(precision, -1)};
                return {precision, EngineLayout::Linear};
            default:
                return {precision, EngineLayout::Linear};
        }
    }

    PredictedLayer reformat(ValueId source, const Form& have, const Form& want, const std::string& target, size_t index,
                            bool output) {
        PredictedLayer r;
        r.name = std::string("Reformatting CopyNode for ") + (output ? "Output" : "Input") + " Tensor " +
                 std::to_string(index) + " to " + target;
        r.kind = PredictedKind::Reformat;
        r.costClass = CostClass::Reformat;
        r.precision = want.precision;
        const int64_t n = elements(source);
        r.inputs.push_back({source, have.precision, have.layout, n});
        r.outputs.push_back({kNoId, want.precision, want.layout, n});
        r.bytes = n * (bytesPerElement(have.precision) + bytesPerElement(want.precision));
        r.note = std::string(upperName(have.precision)) + " " + engineLayoutName(have.layout) + " -> " +
                 upperName(want.precision) + " " + engineLayoutName(want.layout);
        return r;
    }

    static std::string upperName(EnginePrecision precision) {
        std::string name = enginePrecisionName(precision);
        for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return name;
    }

    std::string nameOf(const Group& group) const {
        if (!group.name.empty()) return group.name;
        std::string name;
        for (NodeId n : group.nodes) name += (name.empty() ? "" : " + ") + mGraph.node(n).name;
        return name;
    }

    PredictedLayer layerOf(const Group& group) {
        PredictedLayer layer;
        layer.name = nameOf(group);
        layer.kind = group.kind;
        layer.nodes = group.nodes;
        layer.precision = computePrecision(group);
        layer.costClass = costClassOf(mGraph, group);
        if (group.kind == PredictedKind::ShapeCall) return layer;
        if (group.nodes.empty()) return passThrough(group, layer);
        wireInputs(group, layer);
        wireOutputs(group, layer);
        addCosts(group, layer);
        return layer;
    }

    // A layer without nodes of its own (8.x's reshape after a GEMM): reads and writes what its GEMM wrote.
    PredictedLayer passThrough(const Group& group, PredictedLayer& layer) {
        const Node& gemm = mGraph.node(group.anchor);
        const ValueId v = gemm.outputs.empty() ? kNoId : gemm.outputs[0];
        const Form form = formOf(v);
        const int64_t n = elements(v);
        layer.precision = form.precision;
        layer.inputs.push_back({v, form.precision, form.layout, n});
        layer.outputs.push_back({v, form.precision, form.layout, n});
        layer.bytes = 2 * n * bytesPerElement(form.precision);
        return layer;
    }

    void wireInputs(const Group& group, PredictedLayer& layer) {
        std::vector<ValueId> seen;
        for (NodeId n : group.nodes) {
            for (ValueId v : mGraph.node(n).inputs) {
                if (v == kNoId || std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
                std::vector<ValueId> from;
                sources(v, from);
                from.erase(std::remove_if(from.begin(), from.end(),
                                          [&](ValueId s) { return inGroup(group, mGraph.value(s).producer); }),
                           from.end());
                if (from.empty()) continue;
                seen.push_back(v);
                const bool data = isFloatOrUnknown(mGraph.value(v).type.dtype);
                const Form have = formOf(from.front());
                Form want = data ? wantedInput(group, have, v, n) : have;
                const size_t index = layer.inputs.size();
                layer.inputs.push_back({v, want.precision, want.layout, elements(v)});
                if (!data) continue;
                for (ValueId s : from) {
                    const Form got = formOf(s);
                    if (got == want || !isCompute(got.precision) || !isCompute(want.precision)) continue;
                    const auto key = std::make_tuple(s, want.precision, want.layout);
                    if (std::find(mReformatted.begin(), mReformatted.end(), key) != mReformatted.end()) continue;
                    mReformatted.push_back(key);
                    PredictedLayer r = reformat(s, got, want, layer.name, index, false);
                    r.feeds = mCurrent;
                    mBefore->push_back(std::move(r));
                }
            }
        }
    }

    void wireOutputs(const Group& group, PredictedLayer& layer) {
        const EnginePrecision own = layer.precision;
        const EngineLayout inLayout = layer.inputs.empty() ? EngineLayout::Linear : layer.inputs.front().layout;
        for (NodeId n : group.nodes) {
            for (ValueId v : mGraph.node(n).outputs) {
                if (v == kNoId) continue;
                std::vector<Reader> found;
                bool output = false;
                readers(v, found, output);
                std::erase_if(found, [&](const Reader& r) { return r.group == static_cast<int>(mCurrent); });
                if (found.empty() && !output) continue;
                std::vector<EnginePrecision> wanted;
                for (const Reader& r : found)
                    wanted.push_back(readPrecision(mGroups.groups[static_cast<size_t>(r.group)], r.node));
                if (output) wanted.push_back(precisionOfType(mGraph.value(v).type.dtype));
                std::sort(wanted.begin(), wanted.end());
                wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
                EnginePrecision precision = own;
                if (wanted.size() == 1 && isCompute(wanted[0]) && writesReadersPrecision(group)) precision = wanted[0];
                // A node fused after an INT8 convolution that the plan runs in float (a residual Add with an
                // unquantized identity) writes float: the Q of its INT8 readers stays a reformat of its own, never
                // fused into the layer (TREx resnet-qat on the A100: QuantizeLinear_40, _65, ... after each block).
                if (fusedFloatNode(group, n)) precision = readPrecision(group, n);
                if (!isFloatOrUnknown(mGraph.value(v).type.dtype))
                    precision = precisionOfType(mGraph.value(v).type.dtype);
                // INT8 from 4-wide vectors into float: cuDNN's int8x4 kernels, which write FP32 (latency_model.cpp).
                const bool int8x4 = group.kind == PredictedKind::Convolution && own == EnginePrecision::Int8 &&
                                    inLayout == EngineLayout::Chw4 && precision != EnginePrecision::Int8 &&
                                    isCompute(precision);
                if (int8x4) precision = EnginePrecision::Fp32;
                // A layer writing another precision than it computes in (a fused Q or DQ) keeps its own layout;
                // FP32 is written linear (the INT8 convolutions of the 8.x reports that feed FP32 layers).
                EngineLayout layout = EngineLayout::Linear;
                if (group.region < 0 &&
                    (group.kind == PredictedKind::Convolution || group.kind == PredictedKind::Deconvolution)) {
                    layout = convolutionLayout(precision == EnginePrecision::Fp32 ? precision : own, -1);
                } else if (keepsLayout(group) && !group.movesDataOnly) {
                    layout = inLayout;
                }
                mForms[v] = {precision, layout};
                layer.outputs.push_back({v, precision, layout, elements(v)});
            }
        }
    }

    // The graph outputs TensorRT writes linear, in their declared type: a reformat after the layer that wrote
    // them otherwise.
    void graphOutputs(std::vector<std::vector<PredictedLayer>>& after) {
        for (ValueId out : mGraph.outputs()) {
            std::vector<ValueId> from;
            sources(out, from);
            for (ValueId s : from) {
                const NodeId p = mGraph.value(s).producer;
                if (p == kNoId || mGroups.groupOf[static_cast<size_t>(p)] < 0) continue;
                const Form have = formOf(s);
                const Form want{precisionOfType(mGraph.value(out).type.dtype), EngineLayout::Linear};
                if (have == want || !isCompute(have.precision) || !isCompute(want.precision)) continue;
                const size_t g = static_cast<size_t>(mGroups.groupOf[static_cast<size_t>(p)]);
                PredictedLayer r = reformat(s, have, want, mLayers[g].name, 0, true);
                r.feeds = g;
                after[g].push_back(std::move(r));
            }
        }
    }

    // MACs with the channel padding of the layout (INT8 vectors of 32, FP16 of 8), bytes moved, output tiles.
    void addCosts(const Group& group, PredictedLayer& layer) {
        for (const PredictedTensor& t : layer.inputs) {
            if (!isCompute(t.precision) && t.precision != EnginePrecision::Unknown) continue;
            layer.bytes += t.elements * bytesPerElement(t.precision);
            if (t.value == kNoId || !mGraph.value(t.value).isGraphInput)
                layer.activationBytesRead += t.elements * bytesPerElement(t.precision);
        }
        for (const PredictedTensor& t : layer.outputs) layer.bytes += t.elements * bytesPerElement(t.precision);
        const int64_t align = layer.precision == EnginePrecision::Int8   ? 32
                              : layer.precision == EnginePrecision::Fp16 ? 8
                                                                         : 1;
        for (NodeId n : group.nodes) {
            const Node& node = mGraph.node(n);
            if (node.cost.approximate) mOut.approximateShapes = true;
            int64_t macs = node.cost.macs;
            const bool weighted = node.opType == "Conv" || node.opType == "ConvTranspose" || node.opType == "Gemm" ||
                                  node.opType == "MatMul";
            if (!weighted) continue;
            for (size_t i = 1; i < node.inputs.size(); ++i) {  // weights and bias, at the layer's precision
                const ValueId w = node.inputs[i];
                if (w != kNoId && isConstantInput(w)) layer.bytes += elements(w) * bytesPerElement(layer.precision);
            }
            if (node.opType == "Conv" && node.intAttribute("group", 1) == 1 && node.inputs.size() > 1) {
                const TensorType& w = mGraph.value(node.inputs[1]).type;
                if (w.hasShape && w.dims.size() >= 2 && w.dims[0].size > 0 && w.dims[1].size > 0) {
                    const int64_t cin = w.dims[1].size, cout = w.dims[0].size;
                    const int64_t inAlign = cin <= 4 ? 4 : align;
                    macs = macs / (cin * cout) * roundUp(cin, inAlign) * roundUp(cout, align);
                }
            }
            layer.macs += macs;
        }
        if (layer.macs > 0) {
            int64_t out = 0;
            for (const PredictedTensor& t : layer.outputs) out += t.elements;
            // A convolution's tiles are of what it computes, before a MaxPool fused after it (ConvActPool).
            const Node& anchor = mGraph.node(group.anchor);
            if (group.kind == PredictedKind::Convolution && !anchor.outputs.empty()) out = elements(anchor.outputs[0]);
            layer.outputTiles = (out + 2047) / 2048;
        }
    }

    bool isConstantInput(ValueId v) const {
        const NodeId p = mGraph.value(v).producer;
        return mGraph.value(v).initializer >= 0 || (p != kNoId && !mGroups.live[static_cast<size_t>(p)]);
    }

    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    const Groups& mGroups;
    EnginePrediction& mOut;
    std::vector<PredictedLayer> mLayers;  // one per group
    std::map<ValueId, Form> mForms;       // what each written value is
    std::vector<std::tuple<ValueId, EnginePrecision, EngineLayout>> mReformatted;
    size_t mCurrent = 0;
    std::vector<PredictedLayer>* mBefore = nullptr;
    bool mExplicitQuantization = false;  // the graph carries Q/DQ
};

// A Loop's trip count when it is a constant (its first input, "M"); nullopt for an open one or a Scan's.
std::optional<int64_t> constantTrips(const Graph& graph, const Node& node) {
    if (node.opType != "Loop" || node.inputs.empty() || node.inputs[0] == kNoId) return std::nullopt;
    const auto trips = constantInt64s(graph, node.inputs[0]);
    if (!trips || trips->size() != 1) return std::nullopt;
    return trips->front();
}

// The body's plan: planned, or every layer as the target runs float (PredictedBody).
PrecisionPlan bodyPlan(const PrecisionPlan& plan, const Node& node, const std::string& attribute, const Graph& body,
                       const TrtTarget& target) {
    if (const PrecisionPlan* planned = plan.body(node.name, attribute);
        planned && planned->size() == body.nodes().size())
        return *planned;
    return PrecisionPlan(body, target.typing == TrtTyping::Weak ? Precision::Fp16 : Precision::Fp32);
}

void predictBodies(const Graph& graph, const PrecisionPlan& plan, EnginePrediction& prediction) {
    for (const Node& node : graph.nodes()) {
        if (node.subgraphs.empty()) continue;
        std::vector<PredictedBody> bodies;
        for (const SubgraphInfo& subgraph : node.subgraphs) {
            auto body = buildSubgraphModel(graph, node, subgraph.attribute, OuterInitializers::Copied);
            if (!body) break;
            auto shared = std::make_shared<const SubgraphModel>(std::move(body).value());
            auto engine = std::make_shared<const EnginePrediction>(
                predictEngine(shared->graph, bodyPlan(plan, node, subgraph.attribute, shared->graph, prediction.target),
                              prediction.target));
            prediction.approximateShapes = prediction.approximateShapes || engine->approximateShapes;
            bodies.push_back({node.name, node.opType, subgraph.attribute, std::move(shared), std::move(engine),
                              constantTrips(graph, node)});
        }
        if (bodies.size() == node.subgraphs.size()) {
            for (PredictedBody& body : bodies) prediction.bodies.push_back(std::move(body));
            continue;
        }
        UnpredictedBodies left{node.name, node.subgraphs.size(), 0};
        for (const SubgraphInfo& body : node.subgraphs) left.bodyNodes += body.nodeCount;
        prediction.unpredictedBodies.push_back(std::move(left));
    }
}

}  // namespace

EnginePrediction predictEngine(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target) {
    EnginePrediction prediction;
    prediction.target = target;
    if (plan.size() != graph.nodes().size()) return prediction;
    const Groups groups = prediction::groupNodes(graph, plan, target);
    Wiring(graph, plan, groups, prediction).run();
    prediction.approximateShapes = prediction.approximateShapes || groups.approximate;
    predictBodies(graph, plan, prediction);
    return prediction;
}

}  // namespace ql
