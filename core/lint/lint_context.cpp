#include "core/lint/lint_context.h"

#include "core/lint/lint_latency.h"
#include "core/model/constant_values.h"
#include "core/model/op_roles.h"
#include "core/quant/static_ranges.h"

namespace ql {

namespace {

int64_t inputKey(NodeId layer, size_t slot) {
    return static_cast<int64_t>(layer) * 4096 + static_cast<int64_t>(slot);
}

}  // namespace

bool isOp(const Node& node, std::string_view opType) {
    return node.opType == opType && isDefaultDomain(node);
}

bool isWeightedLayer(const Node& node) {
    return isOp(node, "Conv") || isOp(node, "ConvTranspose") || isOp(node, "Gemm") || isOp(node, "MatMul");
}

std::string joinInts(const std::vector<int64_t>& values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += ',';
        out += std::to_string(values[i]);
    }
    return out + "]";
}

std::optional<std::vector<float>> qdqScales(const Graph& graph, const Node& qdq) {
    if (qdq.inputs.size() < 2 || qdq.inputs[1] == kNoId) return std::nullopt;
    auto scales = constantFloats(graph, qdq.inputs[1]);
    if (!scales || scales->empty()) return std::nullopt;
    return scales;
}

LintContext::LintContext(const Graph& graph, const PrecisionPlan& plan, const LintOptions& options)
    : mGraph(graph),
      mPlan(plan),
      mVersion(options.version),
      mTyping(supportsTyping(options.version, options.typing) ? options.typing : defaultTyping(options.version)),
      mTrtexecCommand(options.trtexecCommand),
      mCalibration(options.calibration),
      mIgnoredRules(options.ignoredRules),
      mWrittenForStrongTyping(options.writtenForStrongTyping),
      mInsideSubgraph(options.insideSubgraph),
      mGpu(options.gpu) {
    for (const QdqLink& link : graph.qdqLinks()) {
        if (link.layer == kNoId) continue;
        mLinkByInput.emplace(inputKey(link.layer, static_cast<size_t>(link.layerInput)), &link);
    }
    for (const Node& node : graph.nodes())
        if (isOp(node, "DequantizeLinear") || isOp(node, "QuantizeLinear")) mExplicit = true;
}

LintContext::~LintContext() = default;

const LintLatency* LintContext::latency() const {
    if (mGpu == nullptr || mInsideSubgraph) return nullptr;
    if (!mLatency)
        mLatency = std::make_unique<LintLatency>(mGraph, mPlan, TrtTarget{mVersion, mTyping}, *mGpu, mExplicit);
    return mLatency.get();
}

const StaticRanges& LintContext::staticRanges() const {
    if (!mStaticRanges) mStaticRanges = std::make_unique<StaticRanges>(mGraph);
    return *mStaticRanges;
}

bool LintContext::runs(std::string_view ruleId) const {
    return !mIgnoredRules.contains(std::string(ruleId));
}

bool LintContext::int8Planned(NodeId node) const {
    if (!mExplicit) return static_cast<size_t>(node) < mPlan.size() && mPlan.requested(node) == Precision::Int8;
    const Node& n = mGraph.node(node);
    for (size_t slot = 0; slot < n.inputs.size(); ++slot)
        if (inputLink(node, slot) != nullptr) return true;
    return false;
}

bool LintContext::int8Effective(NodeId node) const {
    if (!int8Planned(node)) return false;
    return mExplicit || mPlan.effective(node) == Precision::Int8;
}

std::optional<Precision> LintContext::plannedEffective(NodeId node) const {
    if (mExplicit || static_cast<size_t>(node) >= mPlan.size()) return std::nullopt;
    return mPlan.effective(node);
}

const QdqLink* LintContext::inputLink(NodeId layer, size_t slot) const {
    auto it = mLinkByInput.find(inputKey(layer, slot));
    return it == mLinkByInput.end() ? nullptr : it->second;
}

const Node* LintContext::producer(ValueId value) const {
    if (value == kNoId) return nullptr;
    const NodeId id = mGraph.value(value).producer;
    return id == kNoId ? nullptr : &mGraph.node(id);
}

bool LintContext::dequantized(ValueId value) const {
    const Node* p = producer(value);
    return p != nullptr && isOp(*p, "DequantizeLinear");
}

std::vector<int64_t> LintContext::dims(ValueId value) const {
    std::vector<int64_t> out;
    if (value == kNoId) return out;
    if (const Initializer* init = mGraph.initializerOf(value)) return init->dims;
    const TensorType& type = mGraph.value(value).type;
    if (!type.hasShape) return out;
    for (const Dim& d : type.dims) out.push_back(d.known() ? d.size : -1);
    return out;
}

ValueId LintContext::throughQdq(ValueId value) const {
    const Node* dq = producer(value);
    if (dq == nullptr || !isOp(*dq, "DequantizeLinear") || dq->inputs.empty()) return value;
    const Node* q = producer(dq->inputs[0]);
    if (q != nullptr && isOp(*q, "QuantizeLinear") && !q->inputs.empty()) return q->inputs[0];
    return dq->inputs[0];
}

const Node* LintContext::pairedQuantize(const Node& dequantize) const {
    if (!isOp(dequantize, "DequantizeLinear") || dequantize.inputs.empty()) return nullptr;
    const Node* q = producer(dequantize.inputs[0]);
    return q != nullptr && isOp(*q, "QuantizeLinear") && !q->inputs.empty() ? q : nullptr;
}

const Node* LintContext::producerThroughQdq(ValueId value, bool* crossedQdq) const {
    if (crossedQdq != nullptr) *crossedQdq = false;
    const Node* p = producer(value);
    if (p == nullptr || !isOp(*p, "DequantizeLinear")) return p;
    const Node* q = pairedQuantize(*p);
    if (q == nullptr) return nullptr;
    if (crossedQdq != nullptr) *crossedQdq = true;
    return producer(q->inputs[0]);
}

const Node* LintContext::producerBehindQdq(ValueId value) const {
    const Node* dq = producer(value);
    if (dq == nullptr || !isOp(*dq, "DequantizeLinear")) return nullptr;
    const Node* q = pairedQuantize(*dq);
    if (q == nullptr || q->inputs[0] == kNoId || mGraph.value(q->inputs[0]).consumers.size() != 1) return nullptr;
    return producer(q->inputs[0]);
}

Finding LintContext::finding(const RuleInfo& rule, const Node& node, Severity severity, std::string message,
                             std::string fix, bool causesFallback) const {
    Finding f;
    f.ruleId = std::string(rule.id);
    f.severity = severity;
    f.node = node.id;
    f.nodeName = node.name;
    f.opType = node.opType;
    f.message = std::move(message);
    f.fix = std::move(fix);
    f.causesFallback = causesFallback;
    return f;
}

Finding LintContext::finding(const RuleInfo& rule, Severity severity, std::string message, std::string fix) const {
    Finding f;
    f.ruleId = std::string(rule.id);
    f.severity = severity;
    f.message = std::move(message);
    f.fix = std::move(fix);
    return f;
}

}  // namespace ql
