#include "core/quant/output_kind.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string_view>

namespace ql {

namespace {

// Ops that move or retype values without changing what the vector means.
bool passesThrough(const Node& node) {
    static constexpr std::array<std::string_view, 7> kOps = {"Reshape",  "Flatten", "Squeeze", "Unsqueeze",
                                                             "Identity", "Cast",    "Dropout"};
    return std::find(kOps.begin(), kOps.end(), node.opType) != kOps.end();
}

// The node that computes `value`, looking through pass-through ops; null for an input or initializer.
const Node* computingNode(const Graph& graph, ValueId value) {
    for (int steps = 0; steps < 16 && value != kNoId; ++steps) {
        const NodeId producer = graph.value(value).producer;
        if (producer == kNoId) return nullptr;
        const Node& node = graph.node(producer);
        if (!passesThrough(node) || node.inputs.empty()) return &node;
        value = node.inputs[0];
    }
    return nullptr;
}

// Whether `value` is computed (within a few nodes) from a norm: ReduceL2, ReduceSumSquare or Sqrt.
bool derivesFromNorm(const Graph& graph, ValueId value) {
    std::vector<ValueId> frontier{value};
    for (int depth = 0; depth < 6 && !frontier.empty(); ++depth) {
        std::vector<ValueId> next;
        for (ValueId v : frontier) {
            if (v == kNoId || graph.value(v).producer == kNoId) continue;
            const Node& node = graph.node(graph.value(v).producer);
            if (node.opType == "ReduceL2" || node.opType == "ReduceSumSquare" || node.opType == "Sqrt") return true;
            next.insert(next.end(), node.inputs.begin(), node.inputs.end());
        }
        frontier = std::move(next);
    }
    return false;
}

bool l2Normalizes(const Graph& graph, const Node& node) {
    if (node.opType == "LpNormalization") return node.intAttribute("p", 2) == 2;
    if (node.opType != "Div" && node.opType != "Mul") return false;
    return std::any_of(node.inputs.begin(), node.inputs.end(), [&](ValueId in) { return derivesFromNorm(graph, in); });
}

bool namedLikeAnEmbedding(std::string name) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view word : {"embed", "feature", "descriptor"})
        if (name.find(word) != std::string::npos) return true;
    return false;
}

// What the graph and the values say about an [N, C] output; Values with the reason when it is an embedding.
OutputKindDecision classOrEmbedding(const Graph& graph, ValueId output, const OutputRowProfile* rows) {
    const Node* maker = computingNode(graph, output);
    if (maker && (maker->opType == "Softmax" || maker->opType == "LogSoftmax"))
        return {OutputKind::ClassVector, "made by " + maker->opType + " " + maker->name};
    if (maker && l2Normalizes(graph, *maker))
        return {OutputKind::Values, "an embedding: L2-normalized by " + maker->name};
    if (maker && maker->opType == "BatchNormalization")
        return {OutputKind::Values, "an embedding: it ends in BatchNormalization " + maker->name};
    const std::string& name = graph.value(output).name;
    if (namedLikeAnEmbedding(name)) return {OutputKind::Values, "an embedding: its name '" + name + "' says so"};
    if (rows && rows->unitNormRows()) return {OutputKind::Values, "an embedding: every row has unit L2 norm"};
    return {OutputKind::ClassVector, {}};
}

std::vector<int64_t> dimsOf(const Graph& graph, ValueId output) {
    std::vector<int64_t> dims;
    const TensorType& type = graph.value(output).type;
    if (!type.hasShape) return dims;
    for (const Dim& d : type.dims) dims.push_back(d.size);
    return dims;
}

}  // namespace

const char* outputKindName(OutputKind kind) {
    switch (kind) {
        case OutputKind::ClassVector:
            return "class vector";
        case OutputKind::Detection:
            return "detection";
        case OutputKind::Values:
            break;
    }
    return "values";
}

void OutputRowProfile::add(const Tensor& fp32) {
    if (fp32.rank() == 0 || fp32.dim(0) == 0 || fp32.elementCount() == 0) return;
    const std::vector<float> v = fp32.toFloats();
    const size_t rows = static_cast<size_t>(fp32.dim(0)), width = v.size() / rows;
    for (size_t r = 0; r < rows; ++r) {
        double squares = 0.0;
        for (size_t i = r * width; i < (r + 1) * width; ++i) {
            squares += static_cast<double>(v[i]) * v[i];
            mNegative = mNegative || v[i] < 0.0f;
        }
        ++mRows;
        mUnitRows += std::abs(std::sqrt(squares) - 1.0) <= 0.02 ? 1 : 0;
    }
}

OutputKind outputKindOf(const std::vector<int64_t>& dims, bool hasChannelGroups) {
    if (hasChannelGroups) return OutputKind::Detection;
    // [N, C] or [N, C, 1, 1]: one score per class and sample.
    const bool trailingOnes = dims.size() == 4 && dims[2] == 1 && dims[3] == 1;
    if (dims.size() != 2 && !trailingOnes) return OutputKind::Values;
    return dims[1] >= 2 ? OutputKind::ClassVector : OutputKind::Values;
}

OutputKindDecision outputKind(const Graph& graph, ValueId output, bool hasChannelGroups, const OutputRowProfile* rows) {
    const OutputKind byShape = outputKindOf(dimsOf(graph, output), hasChannelGroups);
    if (byShape != OutputKind::ClassVector) return {byShape, {}};
    return classOrEmbedding(graph, output, rows);
}

std::string whyNoTopClass(const Graph& graph) {
    if (graph.outputs().empty()) return {};
    const ValueId output = graph.outputs().front();
    const std::vector<int64_t> dims = dimsOf(graph, output);
    if (dims.empty() || (dims.size() == 2 && dims[1] < 0)) return {};
    const OutputKindDecision decision = outputKind(graph, output, !detectDetectorOutputGroups(graph).empty());
    if (decision.kind == OutputKind::ClassVector) return {};
    const Value& value = graph.value(output);
    std::string why = "the first output '" + value.name + "' " + value.type.shapeString();
    if (!decision.why.empty())
        why += " is " + decision.why;
    else
        why += decision.kind == OutputKind::Detection ? " holds a detector's boxes and scores" : " holds values";
    int64_t perSample = 1;
    for (size_t i = 1; i < dims.size() && perSample > 0; ++i) perSample = dims[i] < 0 ? -1 : perSample * dims[i];
    if (perSample > 0) why += " (" + std::to_string(perSample) + " per sample)";
    return why;
}

OutputKind firstOutputKind(const Graph& graph) {
    if (graph.outputs().empty()) return OutputKind::Values;
    return outputKind(graph, graph.outputs().front(), !detectDetectorOutputGroups(graph).empty()).kind;
}

}  // namespace ql
