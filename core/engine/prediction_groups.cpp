#include "core/engine/prediction_groups.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "core/exec/observed_shapes.h"
#include "core/model/attention_pattern.h"
#include "core/model/fp16_form.h"
#include "core/model/op_roles.h"

namespace ql::prediction {
namespace {

using OpSet = std::set<std::string_view>;

// Renames memory, or is absorbed by the layers around it (Q/DQ): no layer (Developer Guide, "Q/DQ Fusion";
// Reshape/Flatten are NoOps in every report of ../shared/data/engine-reports).
const OpSet kAlias = {"Reshape",  "Flatten",        "Squeeze",          "Unsqueeze",
                      "Identity", "QuantizeLinear", "DequantizeLinear", "Dropout"};
// Activations a convolution or GEMM runs in its epilogue.
const OpSet kActivation = {"Relu", "Clip", "LeakyRelu", "Sigmoid", "Tanh", "HardSigmoid",     "HardSwish",
                           "Elu",  "Selu", "Softplus",  "Gelu",    "Mish", "ThresholdedRelu", "Softsign"};
const OpSet kPointwise = {"Add",
                          "Sub",
                          "Mul",
                          "Div",
                          "Pow",
                          "Max",
                          "Min",
                          "Where",
                          "Equal",
                          "Less",
                          "Greater",
                          "And",
                          "Or",
                          "Not",
                          "Abs",
                          "Neg",
                          "Exp",
                          "Log",
                          "Sqrt",
                          "Reciprocal",
                          "Erf",
                          "Floor",
                          "Ceil",
                          "Round",
                          "Sign",
                          "Sin",
                          "Cos",
                          "PRelu",
                          "Mod",
                          "Cast",
                          "BatchNormalization",
                          "LessOrEqual",
                          "GreaterOrEqual",
                          "IsNaN"};
const OpSet kPooling = {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool"};
const OpSet kNormalization = {"LayerNormalization", "InstanceNormalization",     "GroupNormalization",
                              "LpNormalization",    "MeanVarianceNormalization", "RMSNormalization"};
const OpSet kSoftmax = {"Softmax", "LogSoftmax", "Hardmax"};
const OpSet kReduce = {"ReduceMean", "ReduceSum", "ReduceMax",       "ReduceMin",       "ReduceProd",
                       "ReduceL1",   "ReduceL2",  "ReduceSumSquare", "ReduceLogSumExp", "ArgMax",
                       "ArgMin",     "TopK",      "CumSum"};
const OpSet kShuffle = {"Transpose", "DepthToSpace", "SpaceToDepth", "Tile", "Expand"};
const OpSet kSlice = {"Slice", "Split"};
const OpSet kGather = {"Gather", "GatherElements", "GatherND", "ScatterND", "ScatterElements"};
// Nodes Myelin takes into a region, around its seeds (TensorRT 10 hands these to Myelin in every report of the data).
const OpSet kMyelinMovement = {"Transpose", "Slice", "Split", "Gather", "GatherElements", "Concat",
                               "Expand",    "Tile",  "Shape", "Range",  "ConstantOfShape"};

bool in(const OpSet& set, const Node& node) {
    return isDefaultDomain(node) && set.contains(node.opType);
}

bool isFloat(const Graph& graph, ValueId v) {
    return v != kNoId && isFloatOrUnknown(graph.value(v).type.dtype);
}

class Grouper {
public:
    Grouper(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target)
        : mGraph(graph), mPlan(plan), mTarget(target), mN(graph.nodes().size()) {
        mOut.groupOf.assign(mN, -1);
        mOut.live.assign(mN, false);
        mOut.alias.assign(mN, false);
        mOut.junction.assign(mN, false);
        mClaimed.assign(mN, false);
        mRegion.assign(mN, -1);
    }

    Groups run() {
        markLive();
        fuseWeighted();
        if (trtMajor(mTarget.version) >= 10) formMyelinRegions();
        if (trtMajor(mTarget.version) < 10) fuseAttention(-1);
        groupRest();
        // Execution order: by each layer's last node (a fused layer runs when its last input is ready).
        for (Group& g : mOut.groups)
            if (!g.nodes.empty()) g.order = static_cast<int>(*std::max_element(g.nodes.begin(), g.nodes.end())) * 4 + 2;
        for (Group& g : mOut.groups)  // 8.x's reshape after a GEMM follows the GEMM's last node
            if (g.nodes.empty() && g.kind == PredictedKind::Shuffle)
                for (const Group& gemm : mOut.groups)
                    if (!gemm.nodes.empty() && gemm.anchor == g.anchor) g.order = gemm.order + 1;
        std::stable_sort(mOut.groups.begin(), mOut.groups.end(),
                         [](const Group& a, const Group& b) { return a.order < b.order; });
        for (size_t g = 0; g < mOut.groups.size(); ++g)
            for (NodeId n : mOut.groups[g].nodes) mOut.groupOf[static_cast<size_t>(n)] = static_cast<int>(g);
        return std::move(mOut);
    }

private:
    // Live nodes compute on values that come from a graph input, not through Shape/Size (what the engine runs).
    void markLive() {
        std::vector<bool> active(mGraph.values().size(), false);
        for (ValueId v : mGraph.inputs()) active[static_cast<size_t>(v)] = true;
        for (const Node& node : mGraph.nodes()) {
            const bool fed = std::any_of(node.inputs.begin(), node.inputs.end(),
                                         [&](ValueId v) { return v != kNoId && active[static_cast<size_t>(v)]; });
            if (!fed || node.opType == "Shape" || node.opType == "Size") continue;
            for (ValueId v : node.outputs)
                if (v != kNoId) active[static_cast<size_t>(v)] = true;
            const size_t i = static_cast<size_t>(node.id);
            mOut.live[i] = true;
            const bool floatCast = node.opType == "Cast" && !node.outputs.empty() && isFloat(mGraph, node.inputs[0]) &&
                                   isFloat(mGraph, node.outputs[0]);
            mOut.alias[i] = in(kAlias, node) || floatCast;
            mOut.junction[i] = isDefaultDomain(node) && node.opType == "Concat";
        }
        mActive = std::move(active);
    }

    bool active(ValueId v) const { return v != kNoId && mActive[static_cast<size_t>(v)]; }
    Precision precision(NodeId n) const { return mPlan.effective(n); }
    bool compatible(NodeId a, NodeId b) const {
        return mTarget.typing == TrtTyping::Weak || precision(a) == precision(b);
    }

    // The nodes that read `v`, looked for behind aliases; `output`: it (or an alias of it) is a graph output.
    void readers(ValueId v, std::vector<NodeId>& nodes, bool& output, int depth = 0) const {
        if (v == kNoId || depth > 16) return;
        output = output || mGraph.value(v).isGraphOutput;
        for (NodeId c : mGraph.value(v).consumers) {
            const size_t i = static_cast<size_t>(c);
            if (!mOut.live[i]) continue;
            if (mOut.alias[i] && !mGraph.node(c).outputs.empty()) {
                readers(mGraph.node(c).outputs[0], nodes, output, depth + 1);
            } else if (std::find(nodes.begin(), nodes.end(), c) == nodes.end()) {
                nodes.push_back(c);
            }
        }
    }

    // The node computing `v`, behind aliases; kNoId for a graph input or a constant.
    NodeId producer(ValueId v) const {
        for (int depth = 0; v != kNoId && depth < 16; ++depth) {
            const NodeId p = mGraph.value(v).producer;
            if (p == kNoId || !mOut.live[static_cast<size_t>(p)]) return kNoId;
            if (!mOut.alias[static_cast<size_t>(p)]) return p;
            v = mGraph.node(p).inputs.empty() ? kNoId : mGraph.node(p).inputs[0];
        }
        return kNoId;
    }

    // One other input of `node` besides `from` that is a run-time value; false when all others are constants.
    bool otherInputActive(const Node& node, ValueId from) const {
        for (ValueId v : node.inputs)
            if (v != from && active(v)) return true;
        return false;
    }

    bool isWeighted(const Node& node) const {
        if (!isDefaultDomain(node) || !mOut.live[static_cast<size_t>(node.id)]) return false;
        if (node.opType == "Conv" || node.opType == "ConvTranspose") return true;
        if (node.opType != "Gemm" && node.opType != "MatMul") return false;
        return node.inputs.size() >= 2 && !(active(node.inputs[0]) && active(node.inputs[1]));
    }

    // The weighted layer whose epilogue chain ends in `v` (activations, folded BatchNormalization, constant bias or
    // scale, SiLU), or kNoId: which input of a residual Add joins which convolution.
    NodeId chainHead(ValueId v) const {
        for (int depth = 0; depth < 8; ++depth) {
            std::vector<NodeId> next;
            bool output = false;
            readers(v, next, output);
            // The chain fuses only if nothing else reads it (a SiLU's x is read by its Sigmoid and its Mul).
            const NodeId p = producer(v);
            if (output || next.size() > 2 || (next.size() == 2 && (p == kNoId || !isSiluInput(v, next)))) return kNoId;
            if (p == kNoId) return kNoId;
            const Node& node = mGraph.node(p);
            if (isWeighted(node)) return p;
            const bool epilogue = in(kActivation, node) || node.opType == "BatchNormalization" ||
                                  (in(kPointwise, node) && node.inputs.size() == 2 &&
                                   !(active(node.inputs[0]) && active(node.inputs[1])));
            if (node.opType == "Mul" && node.inputs.size() == 2 && active(node.inputs[0]) && active(node.inputs[1])) {
                // x * Sigmoid(x): follow x.
                const NodeId a = producer(node.inputs[0]);
                v = a != kNoId && mGraph.node(a).opType == "Sigmoid" ? node.inputs[1] : node.inputs[0];
                continue;
            }
            if (!epilogue) return kNoId;
            v = node.inputs[0] != kNoId && active(node.inputs[0]) ? node.inputs[0] : node.inputs.back();
        }
        return kNoId;
    }

    // `v` is read by exactly Sigmoid(v) and v * Sigmoid(v).
    bool isSiluInput(ValueId v, const std::vector<NodeId>& next) const {
        const Node* sig = &mGraph.node(next[0]);
        const Node* mul = &mGraph.node(next[1]);
        if (sig->opType != "Sigmoid") std::swap(sig, mul);
        return sig->opType == "Sigmoid" && mul->opType == "Mul" && !sig->outputs.empty() &&
               std::find(mul->inputs.begin(), mul->inputs.end(), sig->outputs[0]) != mul->inputs.end() &&
               std::find(mul->inputs.begin(), mul->inputs.end(), v) != mul->inputs.end();
    }

    // Which convolution a residual Add fuses into.
    // TensorRT fuses it into the convolution that runs last (the downsample of a ResNet block, after its conv2, in
    // the TensorRT 8 and 10 reports of the data).
    NodeId residualOwner(const Node& add) const {
        NodeId owner = kNoId;
        for (ValueId v : add.inputs)
            if (const NodeId head = chainHead(v); head != kNoId) owner = std::max(owner, head);
        return owner;
    }

    // Grows the epilogue of the weighted layer `group.nodes[0]`.
    void growEpilogue(Group& group, bool allowResidual) {
        const NodeId head = group.nodes.front();
        ValueId t = mGraph.node(head).outputs.empty() ? kNoId : mGraph.node(head).outputs[0];
        bool residual = !allowResidual, hasResidual = false;
        for (int step = 0; step < 12 && t != kNoId; ++step) {
            std::vector<NodeId> next;
            bool output = false;
            readers(t, next, output);
            if (output || next.empty()) return;
            if (next.size() == 2) {  // SiLU: Sigmoid(t) and t * Sigmoid(t)
                const Node* sig = &mGraph.node(next[0]);
                const Node* mul = &mGraph.node(next[1]);
                if (sig->opType != "Sigmoid") std::swap(sig, mul);
                if (sig->opType != "Sigmoid" || mul->opType != "Mul" || mClaimed[static_cast<size_t>(sig->id)] ||
                    mClaimed[static_cast<size_t>(mul->id)] || !compatible(head, sig->id) || !compatible(head, mul->id))
                    return;
                std::vector<NodeId> sigReaders;
                bool sigOut = false;
                readers(sig->outputs[0], sigReaders, sigOut);
                if (sigOut || sigReaders.size() != 1 || sigReaders[0] != mul->id) return;
                claim(group, sig->id);
                claim(group, mul->id);
                t = mul->outputs[0];
                continue;
            }
            if (next.size() != 1) return;
            const Node& c = mGraph.node(next[0]);
            if (mClaimed[static_cast<size_t>(c.id)] || !compatible(head, c.id) || !isDefaultDomain(c)) return;
            const bool constantOperand = c.inputs.size() == 2 && !otherInputActive(c, t);
            if (c.opType == "BatchNormalization") {
                if (group.nodes.size() != 1) return;  // only folded straight after the layer
            } else if (in(kActivation, c)) {
            } else if ((c.opType == "Add" || c.opType == "Sub" || c.opType == "Mul" || c.opType == "Div") &&
                       constantOperand) {
            } else if (c.opType == "Add" && !residual && residualOwner(c) == head) {
                residual = hasResidual = true;
            } else if (!hasResidual && fusesConvActPool(group, c)) {
                claim(group, c.id);
                return;  // the pooling ends the layer
            } else {
                return;
            }
            claim(group, c.id);
            t = c.outputs.empty() ? kNoId : c.outputs[0];
        }
    }

    // TensorRT 8.5 and 8.6 run an INT8 convolution, its activation and the INT8 MaxPool that alone reads them as one
    // layer (ConvActPool): the ResNet stems of the three INT8 builds of the data whose stem writes INT8 (8.5 QAT on
    // an RTX 2000 Ada, 8.6 PTQ on an RTX 3080, TREx's A100 QAT with quantized residuals); none of the data has a
    // residual Add in such a layer, so a layer with one stays apart from the pooling. No TensorRT 10 INT8
    // report of the data shows it or its absence, so 10 and 11 keep them apart. A MaxPool is INT8 when planned so,
    // or, with Q/DQ, when only QuantizeLinear nodes read it (quantizedAfterwards).
    bool fusesConvActPool(const Group& group, const Node& pool) const {
        if (trtMajor(mTarget.version) >= 10 || group.kind != PredictedKind::Convolution || pool.opType != "MaxPool" ||
            precision(group.anchor) != Precision::Int8)
            return false;
        return precision(pool.id) == Precision::Int8 || quantizedAfterwards(mGraph, pool);
    }

    void claim(Group& group, NodeId n) {
        group.nodes.push_back(n);
        mClaimed[static_cast<size_t>(n)] = true;
    }

    Group& newGroup(PredictedKind kind, NodeId first, int region = -1) {
        Group g;
        g.kind = kind;
        g.anchor = first;
        g.region = region;
        g.order = static_cast<int>(first) * 4 + 2;
        if (first != kNoId) {
            g.nodes.push_back(first);
            mClaimed[static_cast<size_t>(first)] = true;
        }
        mOut.groups.push_back(std::move(g));
        return mOut.groups.back();
    }

    // Convolutions everywhere, GEMMs with a weight before TensorRT 10 (Myelin takes them from 10 on).
    void fuseWeighted() {
        const bool myelinGemm = trtMajor(mTarget.version) >= 10;
        for (const Node& node : mGraph.nodes()) {
            if (!isWeighted(node) || mClaimed[static_cast<size_t>(node.id)]) continue;
            const bool conv = node.opType == "Conv" || node.opType == "ConvTranspose";
            if (!conv && myelinGemm) continue;
            const PredictedKind kind = node.opType == "ConvTranspose" ? PredictedKind::Deconvolution
                                       : conv                         ? PredictedKind::Convolution
                                                                      : PredictedKind::Gemm;
            const size_t index = mOut.groups.size();
            growEpilogue(newGroup(kind, node.id), conv);
            if (!conv) addReshapeAfter(index);
        }
    }

    // TensorRT 8.x runs a fully connected layer as a 1x1 convolution over a 4-D tensor and reshapes its output
    // back: a Shuffle layer ("reshape_after_X") of its own in every 8.x report of the data.
    void addReshapeAfter(size_t gemmIndex) {
        Group shuffle;
        shuffle.kind = PredictedKind::Shuffle;
        shuffle.anchor = mOut.groups[gemmIndex].anchor;
        shuffle.order = mOut.groups[gemmIndex].order + 1;
        shuffle.name = "reshape_after_" + mGraph.node(mOut.groups[gemmIndex].anchor).name;
        mOut.groups.push_back(std::move(shuffle));
    }

    bool myelinSeed(const Node& node) const {
        return isDefaultDomain(node) &&
               (node.opType == "MatMul" || node.opType == "Gemm" || node.opType == "Einsum" || in(kSoftmax, node) ||
                in(kReduce, node) || (in(kNormalization, node) && node.opType != "InstanceNormalization"));
    }
    bool myelinJoins(const Node& node) const {
        return myelinSeed(node) || in(kPointwise, node) || in(kActivation, node) || in(kMyelinMovement, node) ||
               mOut.alias[static_cast<size_t>(node.id)];
    }

    void formMyelinRegions() {
        int regions = 0;
        for (const Node& seed : mGraph.nodes()) {
            const size_t s = static_cast<size_t>(seed.id);
            if (!mOut.live[s] || mClaimed[s] || mRegion[s] >= 0 || !myelinSeed(seed)) continue;
            const int region = regions++;
            std::vector<NodeId> stack = {seed.id};
            mRegion[s] = region;
            while (!stack.empty()) {
                const Node& node = mGraph.node(stack.back());
                stack.pop_back();
                const auto visit = [&](NodeId m) {
                    const size_t i = static_cast<size_t>(m);
                    if (m == kNoId || !mOut.live[i] || mClaimed[i] || mRegion[i] >= 0) return;
                    if (!myelinJoins(mGraph.node(m))) return;
                    mRegion[i] = region;
                    stack.push_back(m);
                };
                for (ValueId v : node.inputs)
                    if (active(v)) visit(mGraph.value(v).producer);
                for (ValueId v : node.outputs)
                    if (v != kNoId)
                        for (NodeId c : mGraph.value(v).consumers) visit(c);
            }
            buildRegion(region);
        }
    }

    // The layers of one Myelin region: a shape_call when shapes are dynamic, fused attention, one gemm per MatMul or
    // Gemm with its epilogue, and kgen kernels for the rest.
    void buildRegion(int region) {
        std::vector<NodeId> members;
        for (const Node& node : mGraph.nodes())
            if (mRegion[static_cast<size_t>(node.id)] == region) members.push_back(node.id);
        if (members.empty()) return;
        if (hasOpenInputDims(mGraph)) {
            Group call;
            call.kind = PredictedKind::ShapeCall;
            call.region = region;
            call.order = static_cast<int>(members.front()) * 4;
            call.name = "shape_call (Myelin region " + std::to_string(region) + ")";
            mOut.groups.push_back(std::move(call));
        }
        fuseAttention(region);
        for (NodeId n : members) {
            const Node& node = mGraph.node(n);
            if (mClaimed[static_cast<size_t>(n)] || (node.opType != "MatMul" && node.opType != "Gemm")) continue;
            growEpilogue(newGroup(PredictedKind::Gemm, n, region), false);
        }
        kernelize(region, members);
    }

    // Myelin's generated kernels: a pointwise node joins the open kernel of its single producer when it is that
    // producer's only reader; a reduction ends its kernel, and a Softmax spans two (max/sum, then normalize).
    void kernelize(int region, const std::vector<NodeId>& members) {
        std::vector<int> openKernel(mN, -1);  // per node: the kernel its readers may join
        for (NodeId n : members) {
            const size_t i = static_cast<size_t>(n);
            const Node& node = mGraph.node(n);
            if (mClaimed[i]) continue;
            if (mOut.alias[i]) {
                if (entryReshape(node)) {
                    Group& g = newGroup(PredictedKind::Kgen, n, region);
                    g.movesDataOnly = true;
                    openKernel[i] = static_cast<int>(mOut.groups.size() - 1);
                } else {
                    const NodeId p = producer(node.inputs.empty() ? kNoId : node.inputs[0]);
                    if (p != kNoId) openKernel[i] = openKernel[static_cast<size_t>(p)];
                }
                continue;
            }
            int kernel = -1;
            const NodeId p = node.inputs.empty() ? kNoId : producer(node.inputs[0]);
            if (p != kNoId && mRegion[static_cast<size_t>(p)] == region && openKernel[static_cast<size_t>(p)] >= 0 &&
                compatible(p, n)) {
                std::vector<NodeId> r;
                bool output = false;
                readers(node.inputs[0], r, output);
                if (r.size() == 1 && !output) kernel = openKernel[static_cast<size_t>(p)];
            }
            if (kernel >= 0) {
                mOut.groups[static_cast<size_t>(kernel)].nodes.push_back(n);
                mClaimed[i] = true;
            } else {
                newGroup(PredictedKind::Kgen, n, region);
                kernel = static_cast<int>(mOut.groups.size() - 1);
            }
            if (in(kSoftmax, node)) {
                Group second;
                second.kind = PredictedKind::Kgen;
                second.anchor = n;
                second.region = region;
                second.order = static_cast<int>(n) * 4 + 3;
                second.name = node.name + " (normalize)";
                mOut.groups.push_back(std::move(second));
                openKernel[i] = static_cast<int>(mOut.groups.size() - 1);
            } else {
                openKernel[i] = in(kReduce, node) || in(kNormalization, node) ? -1 : kernel;
            }
        }
    }

    // A Reshape/Flatten entering a region from a channel-major layer with more than one spatial position: Myelin
    // copies it into a linear layout in a kernel of its own (alexnet's classifier), instead of a reformat.
    bool entryReshape(const Node& node) const {
        if (node.opType != "Flatten" && node.opType != "Reshape") return false;
        const NodeId p = producer(node.inputs.empty() ? kNoId : node.inputs[0]);
        if (p == kNoId || mRegion[static_cast<size_t>(p)] >= 0) return false;
        const TensorType& type = mGraph.value(node.inputs[0]).type;
        if (!type.hasShape || type.dims.size() != 4) return false;
        const int64_t h = type.dims[2].size, w = type.dims[3].size;
        return h > 0 && w > 0 && h * w > 1;
    }

    // Attention TensorRT fuses into one kernel (its MHA fusion; Myelin's on 10+): BMM1, scale/mask, Softmax, BMM2.
    void fuseAttention(int region) {
        for (const AttentionPattern& p : findAttentionPatterns(mGraph)) {
            if (p.context == kNoId) continue;
            std::vector<NodeId> nodes = {p.scores};
            nodes.insert(nodes.end(), p.beforeSoftmax.begin(), p.beforeSoftmax.end());
            nodes.push_back(p.softmax);
            nodes.insert(nodes.end(), p.afterSoftmax.begin(), p.afterSoftmax.end());
            nodes.push_back(p.context);
            const bool inRegion = std::all_of(nodes.begin(), nodes.end(), [&](NodeId n) {
                const size_t i = static_cast<size_t>(n);
                return !mClaimed[i] && (region < 0 || mRegion[i] == region);
            });
            if (!inRegion) continue;
            Group& g = newGroup(PredictedKind::Attention, p.scores, region);
            for (size_t k = 1; k < nodes.size(); ++k) claim(g, nodes[k]);
        }
    }

    PredictedKind standaloneKind(const Node& node) const {
        if (in(kPooling, node)) return PredictedKind::Pooling;
        if (in(kPointwise, node) || in(kActivation, node)) return PredictedKind::Pointwise;
        if (in(kSoftmax, node)) return PredictedKind::Softmax;
        if (in(kNormalization, node)) return PredictedKind::Normalization;
        if (in(kReduce, node)) return PredictedKind::Reduce;
        if (in(kShuffle, node)) return PredictedKind::Shuffle;
        if (in(kSlice, node)) return PredictedKind::Slice;
        if (in(kGather, node)) return PredictedKind::Gather;
        if (node.opType == "Resize" || node.opType == "Upsample") return PredictedKind::Resize;
        if (node.opType == "Pad") return PredictedKind::Padding;
        if (node.opType == "MatMul" || node.opType == "Gemm" || node.opType == "Einsum") return PredictedKind::Gemm;
        return PredictedKind::Other;
    }

    // What is left outside Myelin and the weighted layers: pointwise chains fuse (PointWise layers), everything else
    // is a layer of its own.
    void groupRest() {
        std::vector<int> pointwiseGroup(mN, -1);
        for (const Node& node : mGraph.nodes()) {
            const size_t i = static_cast<size_t>(node.id);
            if (!mOut.live[i] || mClaimed[i] || mOut.alias[i] || mOut.junction[i] || mRegion[i] >= 0) continue;
            const PredictedKind kind = standaloneKind(node);
            if (kind == PredictedKind::Pointwise) {
                const ValueId first = node.inputs.empty() ? kNoId : node.inputs[0];
                const NodeId p = producer(first);
                std::vector<NodeId> r;
                bool output = false;
                if (first != kNoId) readers(first, r, output);
                if (p != kNoId && pointwiseGroup[static_cast<size_t>(p)] >= 0 && r.size() == 1 && !output &&
                    compatible(p, node.id)) {
                    const int g = pointwiseGroup[static_cast<size_t>(p)];
                    mOut.groups[static_cast<size_t>(g)].nodes.push_back(node.id);
                    mClaimed[i] = true;
                    pointwiseGroup[i] = g;
                    continue;
                }
                newGroup(kind, node.id);
                pointwiseGroup[i] = static_cast<int>(mOut.groups.size() - 1);
                continue;
            }
            newGroup(kind, node.id);
        }
    }

    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    const TrtTarget& mTarget;
    size_t mN;
    Groups mOut;
    std::vector<bool> mActive;
    std::vector<bool> mClaimed;
    std::vector<int> mRegion;
};

}  // namespace

bool quantizedAfterwards(const Graph& graph, const Node& node) {
    if (node.opType != "MaxPool" || node.outputs.empty() || node.outputs[0] == kNoId) return false;
    const Value& out = graph.value(node.outputs[0]);
    return !out.consumers.empty() && !out.isGraphOutput &&
           std::all_of(out.consumers.begin(), out.consumers.end(),
                       [&](NodeId c) { return graph.node(c).opType == "QuantizeLinear"; });
}

EnginePrecision enginePrecisionOf(Precision precision) {
    switch (precision) {
        case Precision::Int8:
            return EnginePrecision::Int8;
        case Precision::Fp16:
            return EnginePrecision::Fp16;
        case Precision::Fp32:
            break;
    }
    return EnginePrecision::Fp32;
}

Groups groupNodes(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target) {
    return Grouper(graph, plan, target).run();
}

}  // namespace ql::prediction
