#include "core/export/qoperator_import.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/export/graph_preparation.h"
#include "core/export/proto_graph.h"
#include "core/export/quant_params.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

constexpr std::string_view kMicrosoft = "com.microsoft";

bool isOnnxOp(const onnx::NodeProto& node, std::string_view op) {
    return node.op_type() == op && (node.domain().empty() || node.domain() == "ai.onnx");
}

// Positions of one quantized operand of a QLinear* op: the tensor, its scale and its zero point.
struct QuantizedOperand {
    int tensor, scale, zero;
};

// A static QOperator op and the float op it computes; QLinearConcat's operands are the triplets from input 2 on.
struct StaticForm {
    std::string_view domain, op, floatOp;
    std::vector<QuantizedOperand> operands;
    int yScale, yZero;
};

const std::vector<StaticForm>& staticForms() {
    static const std::vector<StaticForm> forms = {
        {"", "QLinearConv", "Conv", {{0, 1, 2}, {3, 4, 5}}, 6, 7},
        {"", "QLinearMatMul", "MatMul", {{0, 1, 2}, {3, 4, 5}}, 6, 7},
        {kMicrosoft, "QLinearAdd", "Add", {{0, 1, 2}, {3, 4, 5}}, 6, 7},
        {kMicrosoft, "QLinearMul", "Mul", {{0, 1, 2}, {3, 4, 5}}, 6, 7},
        {kMicrosoft, "QLinearSigmoid", "Sigmoid", {{0, 1, 2}}, 3, 4},
        {kMicrosoft, "QLinearLeakyRelu", "LeakyRelu", {{0, 1, 2}}, 3, 4},
        {kMicrosoft, "QLinearGlobalAveragePool", "GlobalAveragePool", {{0, 1, 2}}, 3, 4},
        {kMicrosoft, "QLinearConcat", "Concat", {}, 0, 1},
    };
    return forms;
}

const StaticForm* staticForm(const onnx::NodeProto& node) {
    for (const StaticForm& form : staticForms())
        if (node.op_type() == form.op &&
            (form.domain.empty() ? node.domain().empty() || node.domain() == "ai.onnx" : node.domain() == form.domain))
            return &form;
    return nullptr;
}

// Ops that move quantized values without computing on them: given a float input, they move floats.
bool movesData(const onnx::NodeProto& node) {
    constexpr std::array<std::string_view, 14> ops = {"MaxPool",   "Reshape", "Transpose",    "Flatten",     "Squeeze",
                                                      "Unsqueeze", "Resize",  "Slice",        "Split",       "Identity",
                                                      "Gather",    "Expand",  "DepthToSpace", "SpaceToDepth"};
    return (node.domain().empty() || node.domain() == "ai.onnx") &&
           std::find(ops.begin(), ops.end(), node.op_type()) != ops.end();
}

bool isQOperatorOp(std::string_view domain, std::string_view op) {
    constexpr std::array<std::string_view, 4> onnxOps = {"ConvInteger", "MatMulInteger", "DynamicQuantizeLinear",
                                                         "QLinearConv"};
    constexpr std::array<std::string_view, 5> microsoftOps = {"DynamicQuantizeMatMul", "MatMulIntegerToFloat", "QGemm",
                                                              "QAttention", "DynamicQuantizeLSTM"};
    if (domain.empty() || domain == "ai.onnx")
        return op == "QLinearMatMul" || std::find(onnxOps.begin(), onnxOps.end(), op) != onnxOps.end();
    return domain == kMicrosoft &&
           (op.starts_with("QLinear") || std::find(microsoftOps.begin(), microsoftOps.end(), op) != microsoftOps.end());
}

std::string withoutSuffix(std::string name, std::string_view suffix) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) name.resize(name.size() - suffix.size());
    return name;
}

int64_t intAttribute(const onnx::NodeProto& node, const std::string& name, int64_t otherwise) {
    for (const auto& attr : node.attribute())
        if (attr.name() == name) return attr.i();
    return otherwise;
}

// The scale and zero point (names) a quantized tensor that became float had: what a requantization needs.
struct TensorQuantization {
    std::string scale, zero;
};

class QOperatorRewriter {
public:
    QOperatorRewriter(onnx::GraphProto& graph, std::string label)
        : mGraph(graph), mLabel(std::move(label)), mConstants(graph), mNames(graph) {
        for (int i = 0; i < graph.node_size(); ++i) {
            for (const auto& output : graph.node(i).output()) mProducer[output] = i;
            for (const auto& input : graph.node(i).input()) mConsumers[input].push_back(i);
        }
        mRemoved.assign(static_cast<size_t>(graph.node_size()), false);
        mReplacement.resize(static_cast<size_t>(graph.node_size()));
    }

    Status run() {
        for (int i = 0; i < mGraph.node_size(); ++i) {
            if (removedOrReplaced(i)) continue;
            const onnx::NodeProto& node = mGraph.node(i);
            if (isOnnxOp(node, "ConvInteger") || isOnnxOp(node, "MatMulInteger")) {
                QL_RETURN_IF_ERROR(rewriteDynamic(i));
            } else if (const StaticForm* form = staticForm(node)) {
                QL_RETURN_IF_ERROR(rewriteStatic(i, *form));
            } else if (isOnnxOp(node, "DequantizeLinear") && mFloat.count(node.input(0))) {
                dropDequantize(i);
            } else if (movesData(node) && mFloat.count(node.input(0))) {
                for (const auto& output : node.output()) mFloat[output] = mFloat.at(node.input(0));
            }
        }
        requantizeForOthers();
        assemble();
        return Status::ok();
    }

    QOperatorImport& result() { return mResult; }
    const std::unordered_map<std::string, TensorRange>& activations() const { return mActivations; }
    const std::vector<WeightRange>& weights() const { return mWeights; }

private:
    bool removedOrReplaced(int i) const {
        return mRemoved[static_cast<size_t>(i)] || mReplacement[static_cast<size_t>(i)].has_value();
    }

    std::string where(const onnx::NodeProto& node) const {
        return mLabel + ": " + node.op_type() + " '" + node.name() + "'";
    }

    void list(const onnx::NodeProto& node, const std::string& reason) {
        mResult.unrecognized.push_back({node.name(), node.op_type(), reason});
        mListed.insert(node.name());
    }
    Status unrecognized(const onnx::NodeProto& node, const std::string& reason) {
        list(node, reason);
        return Status::ok();
    }

    const onnx::NodeProto* producer(const std::string& name) const {
        auto it = mProducer.find(name);
        return it == mProducer.end() ? nullptr : &mGraph.node(it->second);
    }

    // The one node reading `name` (none when it is a graph output or read by several).
    const onnx::NodeProto* soleConsumer(const std::string& name, std::string_view op) const {
        auto it = mConsumers.find(name);
        if (it == mConsumers.end() || it->second.size() != 1 || isGraphOutput(mGraph, name)) return nullptr;
        const onnx::NodeProto& node = mGraph.node(it->second.front());
        return isOnnxOp(node, op) ? &node : nullptr;
    }

    int indexOf(const onnx::NodeProto& node) const { return mProducer.at(node.output(0)); }

    const onnx::TensorProto* optionalConstant(const onnx::NodeProto& node, int input) {
        if (node.input_size() <= input || node.input(input).empty()) return nullptr;
        return mConstants.find(node.input(input));
    }

    // --- dynamic quantization -------------------------------------------------------------------------------

    struct DynamicMatch {
        const onnx::NodeProto* quantize = nullptr;  // DynamicQuantizeLinear
        const onnx::NodeProto* cast = nullptr;
        const onnx::NodeProto* scale = nullptr;    // Mul(cast, scales)
        const onnx::NodeProto* scales = nullptr;   // Mul(x_scale, w_scale)
        const onnx::NodeProto* biasAdd = nullptr;  // folded into Conv
        const onnx::NodeProto* biasReshape = nullptr;
        const onnx::TensorProto* weightScale = nullptr;
        const onnx::TensorProto* bias = nullptr;  // one value per output channel
    };

    // The pattern around integer op `node`, or the reason it is not one.
    std::optional<std::string> matchDynamic(const onnx::NodeProto& node, DynamicMatch& m) {
        m.quantize = producer(node.input(0));
        if (!m.quantize || !isOnnxOp(*m.quantize, "DynamicQuantizeLinear") || m.quantize->output(0) != node.input(0))
            return "input 0 is not a DynamicQuantizeLinear output";
        if (node.input_size() > 2 && !node.input(2).empty() && node.input(2) != m.quantize->output(2))
            return "its input zero point is not the DynamicQuantizeLinear's";
        if (!mConstants.find(node.input(1))) return "the weight is not a constant";
        if (node.input_size() > 3 && !node.input(3).empty() && !mConstants.find(node.input(3)))
            return "the weight zero point is not a constant";
        m.cast = soleConsumer(node.output(0), "Cast");
        if (!m.cast || intAttribute(*m.cast, "to", 0) != onnx::TensorProto::FLOAT)
            return "its output is not read by one Cast to FLOAT";
        m.scale = soleConsumer(m.cast->output(0), "Mul");
        if (!m.scale) return "the Cast is not read by one Mul";
        const std::string& scalesName = m.scale->input(0) == m.cast->output(0) ? m.scale->input(1) : m.scale->input(0);
        m.scales = producer(scalesName);
        if (!m.scales || !isOnnxOp(*m.scales, "Mul")) return "the Cast is not scaled by Mul(x_scale, w_scale)";
        const int xScale = m.scales->input(0) == m.quantize->output(1) ? 0 : 1;
        if (m.scales->input(xScale) != m.quantize->output(1))
            return "the scale Mul does not read the DynamicQuantizeLinear's scale";
        m.weightScale = mConstants.find(m.scales->input(1 - xScale));
        if (!m.weightScale) return "the weight scale is not a constant";
        return std::nullopt;
    }

    // Whether `shape` is [1, C, 1, ...] / [C, 1, ...] for a per-channel bias of a Conv with `spatial` dimensions.
    static bool channelShape(const std::vector<float>& shape, size_t spatial, float channels) {
        if (shape.size() < spatial + 1) return false;
        for (size_t d = 0; d < shape.size(); ++d) {
            const bool channel = d == shape.size() - spatial - 1;
            if (channel ? shape[d] != channels && shape[d] != -1.0f : shape[d] != 1.0f) return false;
        }
        return true;
    }

    // The Add after a dynamic Conv when it adds one constant per output channel; its values.
    void matchBias(const onnx::NodeProto& conv, DynamicMatch& m) {
        const onnx::TensorProto* weight = mConstants.find(conv.input(1));
        const auto* add = soleConsumer(m.scale->output(0), "Add");
        if (!add || weight->dims_size() < 3) return;
        const std::string& other = add->input(0) == m.scale->output(0) ? add->input(1) : add->input(0);
        const size_t spatial = static_cast<size_t>(weight->dims_size() - 2);
        const auto channels = static_cast<float>(weight->dims(0));
        const onnx::TensorProto* bias = mConstants.find(other);
        std::vector<float> shape;
        if (bias) {
            shape.assign(bias->dims().begin(), bias->dims().end());
        } else if (const auto* reshape = producer(other); reshape && isOnnxOp(*reshape, "Reshape")) {
            bias = mConstants.find(reshape->input(0));
            m.biasReshape = reshape;
            const auto* target = optionalConstant(*reshape, 1);
            if (!target) return;
            auto values = tensorAsFloats(*target);
            if (!values) return;
            shape = std::move(*values);
        }
        int64_t count = 1;
        for (int64_t d : bias ? bias->dims() : google::protobuf::RepeatedField<int64_t>()) count *= d;
        if (!bias || bias->data_type() != onnx::TensorProto::FLOAT || count != weight->dims(0) ||
            !channelShape(shape, spatial, channels))
            return;
        m.bias = bias;
        m.biasAdd = add;
    }

    // The bias as Conv's B input: the constant itself when it is one-dimensional, else a copy of its values.
    Result<std::string> channelBias(const onnx::TensorProto& bias) {
        if (bias.dims_size() == 1 && !bias.name().empty() && mConstants.find(bias.name()) == &bias) return bias.name();
        QL_ASSIGN_OR_RETURN(const auto values, tensorAsFloats(bias));
        const std::string name = mNames.make(bias.name().empty() ? "bias" : bias.name() + "_channels");
        *mGraph.add_initializer() = makeFloatTensor(name, {static_cast<int64_t>(values.size())}, values);
        return name;
    }

    Result<std::string> floatWeight(const onnx::NodeProto& node, const onnx::TensorProto& quantized,
                                    const onnx::TensorProto& scale, const onnx::TensorProto* zero, int64_t axis,
                                    bool weighted) {
        QL_ASSIGN_OR_RETURN(QuantizationParams q, readQuantParams(scale, zero, axis, where(node)));
        const bool signedLevels = quantized.data_type() == onnx::TensorProto::INT8;
        q.qmin = signedLevels ? -128.0f : 0.0f, q.qmax = signedLevels ? 127.0f : 255.0f;
        QL_ASSIGN_OR_RETURN(const auto values, dequantizeTensor(quantized, q, false, where(node)));
        std::string name = mNames.make(withoutSuffix(quantized.name(), "_quantized"));
        *mGraph.add_initializer() =
            makeFloatTensor(name, std::vector<int64_t>(quantized.dims().begin(), quantized.dims().end()), values);
        if (weighted) {
            WeightRange range{name, kNoId, q.scales.size() > 1 ? axis : 0, {}};
            for (size_t c = 0; c < q.scales.size(); ++c) range.amax.push_back(rangeAmax(q, c));
            mWeights.push_back(std::move(range));
        }
        return name;
    }

    onnx::NodeProto floatNode(const onnx::NodeProto& quantized, std::string_view op,
                              const std::vector<std::string>& inputs, const std::string& output) const {
        onnx::NodeProto node;
        node.set_op_type(std::string(op));
        node.set_name(withoutSuffix(quantized.name(), "_quant"));
        for (const auto& input : inputs) node.add_input(input);
        node.add_output(output);
        for (const auto& attr : quantized.attribute())
            if (attr.name() != "channels_last") *node.add_attribute() = attr;
        return node;
    }

    Status rewriteDynamic(int index) {
        const onnx::NodeProto& node = mGraph.node(index);
        DynamicMatch m;
        if (auto reason = matchDynamic(node, m)) return unrecognized(node, *reason);
        const bool conv = node.op_type() == "ConvInteger";
        if (conv) matchBias(node, m);
        const onnx::TensorProto& weight = *mConstants.find(node.input(1));
        const int64_t axis = conv ? 0 : weight.dims_size() - 1;
        QL_ASSIGN_OR_RETURN(std::string w,
                            floatWeight(node, weight, *m.weightScale, optionalConstant(node, 3), axis, true));
        std::vector<std::string> inputs = {m.quantize->input(0), w};
        if (m.bias) {
            QL_ASSIGN_OR_RETURN(auto bias, channelBias(*m.bias));
            inputs.push_back(std::move(bias));
        }
        const onnx::NodeProto* last = m.biasAdd ? m.biasAdd : m.scale;
        const onnx::NodeProto replacement = floatNode(node, conv ? "Conv" : "MatMul", inputs, last->output(0));
        mResult.int8Nodes.push_back(replacement.name());
        for (const auto* gone : {&node, m.cast, m.scale, m.biasAdd})
            if (gone) mRemoved[static_cast<size_t>(indexOf(*gone))] = true;
        mReplacement[static_cast<size_t>(indexOf(*last))] = replacement;
        for (const auto* maybe : {m.quantize, m.scales, m.biasReshape})
            if (maybe) mCandidates.insert(indexOf(*maybe));
        ++mResult.dynamicLayers;
        return Status::ok();
    }

    // --- static QOperator ------------------------------------------------------------------------------------

    std::vector<QuantizedOperand> operandsOf(const onnx::NodeProto& node, const StaticForm& form) const {
        if (form.op != "QLinearConcat") return form.operands;
        std::vector<QuantizedOperand> operands;
        for (int i = 2; i + 2 < node.input_size(); i += 3) operands.push_back({i, i + 1, i + 2});
        return operands;
    }

    // Records the range of float tensor `name`, quantized with (scale, zero) of `node`.
    Status recordRange(const onnx::NodeProto& node, const std::string& name, int scaleInput, int zeroInput) {
        const auto* scale = optionalConstant(node, scaleInput);
        if (!scale) return invalidModel(where(node) + ": the scale of '" + name + "' is not a constant");
        const auto* zero = optionalConstant(node, zeroInput);
        if (!zero && node.input_size() > zeroInput && !node.input(zeroInput).empty())
            return invalidModel(where(node) + ": the zero point of '" + name + "' is not a constant");
        QL_ASSIGN_OR_RETURN(const QuantizationParams q, readQuantParams(*scale, zero, 1, where(node)));
        TensorRange range;
        range.name = name;
        range.amax = rangeAmax(q, 0, &range.min, &range.max);
        mActivations[name] = range;
        return Status::ok();
    }

    // Why operand `o` of `node` cannot be read as float, or nothing.
    std::optional<std::string> operandProblem(const onnx::NodeProto& node, const QuantizedOperand& o) {
        if (node.input_size() <= o.scale || !mConstants.find(node.input(o.scale)))
            return "the scale of input " + std::to_string(o.tensor) + " is not a constant";
        const std::string& t = node.input(o.tensor);
        const auto* from = producer(t);
        if ((from && from->op_type() == "QuantizeLinear") || mFloat.count(t)) return std::nullopt;
        const auto* constant = mConstants.find(t);
        if (constant &&
            (constant->data_type() == onnx::TensorProto::INT8 || constant->data_type() == onnx::TensorProto::UINT8))
            return std::nullopt;
        return "input '" + t + "' comes from neither a QuantizeLinear, a QLinear op nor a quantized constant";
    }

    Result<std::string> floatOperand(const onnx::NodeProto& node, const QuantizedOperand& o, bool weighted) {
        const std::string& t = node.input(o.tensor);
        if (mFloat.count(t)) {
            if (!mActivations.count(t)) QL_RETURN_IF_ERROR(recordRange(node, t, o.scale, o.zero));
            return t;
        }
        if (const auto* q = producer(t); q && q->op_type() == "QuantizeLinear") {
            mCandidates.insert(indexOf(*q));
            QL_RETURN_IF_ERROR(recordRange(node, q->input(0), o.scale, o.zero));
            return q->input(0);
        }
        const onnx::TensorProto& quantized = *mConstants.find(t);
        const int64_t axis = node.op_type() == "QLinearConv" ? 0 : quantized.dims_size() - 1;
        return floatWeight(node, quantized, *mConstants.find(node.input(o.scale)), optionalConstant(node, o.zero), axis,
                           weighted);
    }

    // QLinearConv's int32 bias as float: bias * x_scale * w_scale (per output channel).
    Result<std::string> floatBias(const onnx::NodeProto& node) {
        const auto* bias = optionalConstant(node, 8);
        const auto* xScale = optionalConstant(node, 1);
        const auto* wScale = optionalConstant(node, 4);
        if (!bias || !xScale || !wScale) return invalidModel(where(node) + ": the bias or a scale is not a constant");
        QL_ASSIGN_OR_RETURN(auto b, tensorAsFloats(*bias));
        QL_ASSIGN_OR_RETURN(const auto xs, tensorAsFloats(*xScale));
        QL_ASSIGN_OR_RETURN(const auto ws, tensorAsFloats(*wScale));
        if (xs.size() != 1 || (ws.size() != 1 && ws.size() != b.size()))
            return invalidModel(where(node) + ": the bias does not match the scales (one per output channel)");
        for (size_t c = 0; c < b.size(); ++c) b[c] = b[c] * xs[0] * ws[ws.size() == 1 ? 0 : c];
        const std::string name = mNames.make(node.input(8) + "_float");
        *mGraph.add_initializer() = makeFloatTensor(name, {static_cast<int64_t>(b.size())}, b);
        return name;
    }

    Status rewriteStatic(int index, const StaticForm& form) {
        const onnx::NodeProto& node = mGraph.node(index);
        if (intAttribute(node, "channels_last", 0) != 0) return unrecognized(node, "channels_last is not imported");
        const auto operands = operandsOf(node, form);
        for (const auto& o : operands)
            if (auto problem = operandProblem(node, o)) return unrecognized(node, *problem);
        const bool weighted = form.floatOp == "Conv" || form.floatOp == "MatMul";
        std::vector<std::string> inputs;
        for (size_t k = 0; k < operands.size(); ++k) {
            QL_ASSIGN_OR_RETURN(auto input, floatOperand(node, operands[k], weighted && k == 1));
            inputs.push_back(std::move(input));
        }
        if (form.floatOp == "Conv" && node.input_size() > 8 && !node.input(8).empty()) {
            QL_ASSIGN_OR_RETURN(auto bias, floatBias(node));
            inputs.push_back(std::move(bias));
        }
        QL_RETURN_IF_ERROR(recordRange(node, node.output(0), form.yScale, form.yZero));
        mFloat[node.output(0)] = {node.input(form.yScale),
                                  node.input_size() > form.yZero ? node.input(form.yZero) : std::string()};
        onnx::NodeProto replacement = floatNode(node, form.floatOp, inputs, node.output(0));
        mResult.int8Nodes.push_back(replacement.name());
        mReplacement[static_cast<size_t>(index)] = std::move(replacement);
        ++mResult.staticNodes;
        return Status::ok();
    }

    // A DequantizeLinear of a tensor that is float now: its readers read that tensor (an Identity keeps a graph
    // output's name).
    void dropDequantize(int index) {
        const onnx::NodeProto& node = mGraph.node(index);
        if (!isGraphOutput(mGraph, node.output(0))) {
            mRename[node.output(0)] = node.input(0);
            mRemoved[static_cast<size_t>(index)] = true;
            return;
        }
        onnx::NodeProto identity;
        identity.set_op_type("Identity");
        identity.set_name(node.name());
        identity.add_input(node.input(0));
        identity.add_output(node.output(0));
        mReplacement[static_cast<size_t>(index)] = std::move(identity);
    }

    // Nodes left as they were that read a tensor which is float now get it quantized again with its own scale.
    void requantizeForOthers() {
        std::unordered_map<std::string, std::string> requantized;
        for (int i = 0; i < mGraph.node_size(); ++i) {
            if (removedOrReplaced(i) || movesData(mGraph.node(i))) continue;
            onnx::NodeProto& node = *mGraph.mutable_node(i);
            for (auto& input : *node.mutable_input()) {
                auto it = mFloat.find(input);
                if (it == mFloat.end() || isOnnxOp(node, "DequantizeLinear")) continue;
                if (!requantized.count(input)) requantized[input] = addRequantize(input, it->second);
                if (!mListed.count(node.name()))
                    list(node, "reads the quantized tensor '" + input + "': it gets it requantized");
                input = requantized[input];
            }
        }
    }

    std::string addRequantize(const std::string& tensor, const TensorQuantization& q) {
        onnx::NodeProto node;
        node.set_op_type("QuantizeLinear");
        node.set_name(mNames.make(tensor + "_requantize"));
        node.add_input(tensor);
        node.add_input(q.scale);
        if (!q.zero.empty()) node.add_input(q.zero);
        node.add_output(mNames.make(tensor + "_requantized"));
        mAppended.push_back({mProducer.count(tensor) ? mProducer.at(tensor) : -1, node});
        return node.output(0);
    }

    void renameInputs(onnx::NodeProto& node) const {
        for (auto& input : *node.mutable_input())
            if (auto it = mRename.find(input); it != mRename.end()) input = it->second;
    }

    // Pattern nodes (DynamicQuantizeLinear, the scale Mul, the bias Reshape, QuantizeLinear) nobody reads any more.
    void dropUnread() {
        for (bool changed = true; changed;) {
            changed = false;
            std::unordered_set<std::string> read;
            for (int i = 0; i < mGraph.node_size(); ++i) {
                if (mRemoved[static_cast<size_t>(i)]) continue;
                const auto& node =
                    mReplacement[static_cast<size_t>(i)] ? *mReplacement[static_cast<size_t>(i)] : mGraph.node(i);
                for (const auto& input : node.input()) read.insert(input);
            }
            for (const auto& [after, node] : mAppended)
                for (const auto& input : node.input()) read.insert(input);
            for (int i : mCandidates) {
                const auto& node = mGraph.node(i);
                if (mRemoved[static_cast<size_t>(i)] || mReplacement[static_cast<size_t>(i)]) continue;
                const bool unread = std::none_of(node.output().begin(), node.output().end(), [&](const auto& o) {
                    return read.count(o) || isGraphOutput(mGraph, o);
                });
                if (unread) mRemoved[static_cast<size_t>(i)] = changed = true;
            }
        }
    }

    void assemble() {
        dropUnread();
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        auto appendAfter = [&](int index) {
            for (const auto& [after, node] : mAppended)
                if (after == index) *nodes.Add() = node;
        };
        appendAfter(-1);
        for (int i = 0; i < mGraph.node_size(); ++i) {
            if (mReplacement[static_cast<size_t>(i)]) {
                *nodes.Add() = *mReplacement[static_cast<size_t>(i)];
            } else if (!mRemoved[static_cast<size_t>(i)]) {
                *nodes.Add() = mGraph.node(i);
                renameInputs(*nodes.rbegin());
            }
            appendAfter(i);
        }
        mGraph.mutable_node()->Swap(&nodes);
        retypeFloatTensors();
        removeUnusedInitializers(mGraph);
    }

    // Value infos of tensors that are float now go (shape inference finds them again); such graph outputs are FLOAT.
    void retypeFloatTensors() {
        google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
        for (const auto& info : mGraph.value_info())
            if (!mFloat.count(info.name())) *kept.Add() = info;
        mGraph.mutable_value_info()->Swap(&kept);
        for (auto& output : *mGraph.mutable_output())
            if (mFloat.count(output.name()) && output.type().has_tensor_type())
                output.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    }

    onnx::GraphProto& mGraph;
    std::string mLabel;
    ProtoConstants mConstants;
    UniqueNames mNames;
    std::unordered_map<std::string, int> mProducer;
    std::unordered_map<std::string, std::vector<int>> mConsumers;
    std::vector<bool> mRemoved;
    std::vector<std::optional<onnx::NodeProto>> mReplacement;  // the float node written at this position
    std::vector<std::pair<int, onnx::NodeProto>> mAppended;    // requantizations, after the node index given
    std::set<int> mCandidates;
    std::unordered_map<std::string, TensorQuantization> mFloat;  // quantized tensors that are float now
    std::unordered_map<std::string, std::string> mRename;        // DequantizeLinear output -> float tensor
    std::unordered_set<std::string> mListed;
    std::unordered_map<std::string, TensorRange> mActivations;
    std::vector<WeightRange> mWeights;
    QOperatorImport mResult;
};

}  // namespace

bool isQOperatorNode(const Node& node) {
    return isQOperatorOp(node.domain, node.opType);
}

bool hasQOperatorNodes(const Graph& graph) {
    return std::any_of(graph.nodes().begin(), graph.nodes().end(), isQOperatorNode);
}

Result<QOperatorImport> importQOperatorModel(const Model& quantized) {
    QL_ASSIGN_OR_RETURN(auto proto, selfContainedProto(quantized));
    QOperatorRewriter rewriter(*proto.mutable_graph(), quantized.fileName());
    QL_RETURN_IF_ERROR(rewriter.run());
    QOperatorImport result = std::move(rewriter.result());
    for (const auto& node : proto.graph().node())
        if (isQOperatorOp(node.domain(), node.op_type()) &&
            std::none_of(result.unrecognized.begin(), result.unrecognized.end(),
                         [&](const UnrecognizedNode& u) { return u.node == node.name(); }))
            result.unrecognized.push_back({node.name(), node.op_type(), "not part of a pattern QuantLens imports"});
    QL_ASSIGN_OR_RETURN(result.imported.model, reloadModel(proto, quantized));
    const Graph& graph = result.imported.model->graph();
    for (const Value& value : graph.values())
        if (auto it = rewriter.activations().find(value.name); it != rewriter.activations().end())
            result.imported.scales.activations.push_back(it->second);
    for (WeightRange weight : rewriter.weights()) {
        const auto v = graph.findValue(weight.name);
        if (!v || graph.value(*v).consumers.empty()) continue;
        weight.layer = graph.value(*v).consumers.front();
        result.imported.scales.weights.push_back(std::move(weight));
    }
    return result;
}

std::string qoperatorImportSummary(const QOperatorImport& import) {
    std::string text = std::to_string(import.dynamicLayers) + " dynamically quantized layers and " +
                       std::to_string(import.staticNodes) + " QLinear nodes made float, " +
                       std::to_string(import.imported.scales.activations.size()) + " activation ranges";
    if (import.dynamicLayers > 0 && import.staticNodes == 0)
        text += " (dynamic quantization computes its activation scales at run time: it carries none)";
    if (!import.unrecognized.empty()) {
        const auto& first = import.unrecognized.front();
        text += "; " + std::to_string(import.unrecognized.size()) + " nodes not imported (first: '" + first.node +
                "' (" + first.opType + "): " + first.reason + ")";
    }
    return text;
}

}  // namespace ql
