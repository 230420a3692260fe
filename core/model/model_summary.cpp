#include "core/model/model_summary.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ql {

namespace {

TensorSummary tensorSummary(const Value& value) {
    return {value.name, dataTypeName(value.type.dtype), value.type.shapeString()};
}

std::string withThousands(int64_t n) {
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

std::string humanBytes(int64_t bytes) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2);
    if (bytes >= (1LL << 30))
        s << static_cast<double>(bytes) / (1LL << 30) << " GiB";
    else if (bytes >= (1LL << 20))
        s << static_cast<double>(bytes) / (1LL << 20) << " MiB";
    else if (bytes >= (1LL << 10))
        s << static_cast<double>(bytes) / (1LL << 10) << " KiB";
    else
        return std::to_string(bytes) + " B";
    return s.str();
}

void addTensor(const onnx::TensorProto& tensor, ParameterTotals& totals) {
    const auto dtype = static_cast<DataType>(tensor.data_type());
    if (dtype == DataType::Int64) return;
    int64_t count = 1;
    for (int64_t d : tensor.dims()) count = d < 0 || (d > 0 && count > INT64_MAX / d) ? 0 : count * d;
    totals.count += count;
    totals.bytes += count * static_cast<int64_t>(dataTypeSize(dtype));
}

// Constant nodes' tensors of `graph`, and everything inside its nodes' bodies (`inBody`: the initializers too).
void addOtherParameters(const onnx::GraphProto& graph, bool inBody, ParameterTotals& totals) {
    if (inBody)
        for (const auto& init : graph.initializer()) addTensor(init, totals);
    for (const auto& node : graph.node()) {
        for (const auto& attr : node.attribute()) {
            if (node.op_type() == "Constant" && attr.has_t()) addTensor(attr.t(), totals);
            if (attr.has_g()) addOtherParameters(attr.g(), true, totals);
            for (const auto& body : attr.graphs()) addOtherParameters(body, true, totals);
        }
    }
}

}  // namespace

ModelSummary summarize(const Model& model) {
    const auto& proto = model.proto();
    const Graph& graph = model.graph();
    ModelSummary s;
    s.file = model.path();
    s.producerName = proto.producer_name();
    s.producerVersion = proto.producer_version();
    s.irVersion = proto.ir_version();
    s.opsets = graph.opsets();
    s.externalData = model.usesExternalData();
    for (ValueId id : graph.inputs()) s.inputs.push_back(tensorSummary(graph.value(id)));
    for (ValueId id : graph.outputs()) s.outputs.push_back(tensorSummary(graph.value(id)));
    s.nodeCount = static_cast<int64_t>(graph.nodes().size());
    for (const Node& node : graph.nodes()) {
        ++s.opCounts[node.domain.empty() ? node.opType : node.domain + "." + node.opType];
        for (const auto& sub : node.subgraphs) s.subgraphNodeCount += static_cast<int64_t>(sub.nodeCount);
        s.macs += node.cost.macs;
        s.macsApproximate = s.macsApproximate || node.cost.approximate;
    }
    for (const Initializer& init : graph.initializers()) {
        auto& perType = s.byDtype[dataTypeName(init.dtype)];
        perType.count += init.elementCount;
        perType.bytes += static_cast<int64_t>(init.byteSize);
        auto& total = init.dtype == DataType::Int64 ? s.int64Parameters : s.parameters;
        total.count += init.elementCount;
        total.bytes += static_cast<int64_t>(init.byteSize);
    }
    s.initializerCount = static_cast<int64_t>(graph.initializers().size());
    addOtherParameters(proto.graph(), false, s.otherParameters);
    for (const QdqLink& link : graph.qdqLinks()) {
        QdqSummary q;
        if (link.quantize != kNoId) q.quantizeNode = graph.node(link.quantize).name;
        q.dequantizeNode = graph.node(link.dequantize).name;
        if (link.source != kNoId) q.tensor = graph.value(link.source).name;
        if (link.layer != kNoId) {
            q.layer = graph.node(link.layer).name;
            q.layerOp = graph.node(link.layer).opType;
        }
        q.layerInput = link.layerInput;
        q.isWeight = link.isWeight;
        q.perChannel = link.params.perChannel();
        q.axis = link.params.axis;
        q.scaleCount = link.params.scales.size();
        if (!link.params.scales.empty()) q.firstScale = link.params.scales[0];
        if (!link.params.zeroPoints.empty()) q.firstZeroPoint = link.params.zeroPoints[0];
        q.quantType = dataTypeName(link.params.quantType);
        s.qdqPairs.push_back(std::move(q));
    }
    s.diagnostics = model.diagnostics();
    return s;
}

nlohmann::json toJson(const ModelSummary& s) {
    using nlohmann::json;
    auto tensors = [](const std::vector<TensorSummary>& list) {
        json arr = json::array();
        for (const auto& t : list) arr.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}});
        return arr;
    };
    json opsets = json::object();
    for (const auto& [domain, version] : s.opsets) opsets[domain.empty() ? "ai.onnx" : domain] = version;
    json byDtype = json::object();
    for (const auto& [dtype, totals] : s.byDtype) byDtype[dtype] = {{"count", totals.count}, {"bytes", totals.bytes}};
    json qdq = json::array();
    for (const auto& q : s.qdqPairs) {
        qdq.push_back({{"quantize", q.quantizeNode},
                       {"dequantize", q.dequantizeNode},
                       {"tensor", q.tensor},
                       {"layer", q.layer},
                       {"layer_op", q.layerOp},
                       {"layer_input", q.layerInput},
                       {"kind", q.isWeight ? "weight" : "activation"},
                       {"per_channel", q.perChannel},
                       {"axis", q.axis},
                       {"scales", q.scaleCount},
                       {"scale", q.firstScale},
                       {"zero_point", q.firstZeroPoint},
                       {"quant_type", q.quantType}});
    }
    json diagnostics = json::array();
    for (const auto& d : s.diagnostics)
        diagnostics.push_back({{"severity", severityName(d.severity)}, {"source", d.source}, {"message", d.message}});
    return {{"file", s.file},
            {"producer", {{"name", s.producerName}, {"version", s.producerVersion}}},
            {"ir_version", s.irVersion},
            {"opsets", opsets},
            {"inputs", tensors(s.inputs)},
            {"outputs", tensors(s.outputs)},
            {"nodes", s.nodeCount},
            {"subgraph_nodes", s.subgraphNodeCount},
            {"op_counts", s.opCounts},
            {"initializers", s.initializerCount},
            {"parameters",
             {{"count", s.parameters.count},
              {"bytes", s.parameters.bytes},
              {"int64_count", s.int64Parameters.count},
              {"int64_bytes", s.int64Parameters.bytes},
              {"constant_count", s.otherParameters.count},
              {"constant_bytes", s.otherParameters.bytes},
              {"by_dtype", byDtype}}},
            {"macs", s.macs},
            {"macs_approximate", s.macsApproximate},
            {"external_data", s.externalData},
            {"qdq_pairs", qdq},
            {"diagnostics", diagnostics}};
}

std::string toText(const ModelSummary& s) {
    std::ostringstream out;
    out << "Model:      " << s.file << "\n";
    out << "Producer:   " << (s.producerName.empty() ? "(none)" : s.producerName)
        << (s.producerVersion.empty() ? "" : " " + s.producerVersion) << "\n";
    out << "IR version: " << s.irVersion << "\n";
    out << "Opsets:    ";
    for (const auto& [domain, version] : s.opsets)
        out << " " << (domain.empty() ? "ai.onnx" : domain) << "=" << version;
    out << "\n\nInputs:\n";
    for (const auto& t : s.inputs) out << "  " << t.name << "  " << t.dtype << " " << t.shape << "\n";
    out << "Outputs:\n";
    for (const auto& t : s.outputs) out << "  " << t.name << "  " << t.dtype << " " << t.shape << "\n";
    out << "\nNodes: " << s.nodeCount;
    if (s.subgraphNodeCount) out << " (+" << s.subgraphNodeCount << " inside subgraphs)";
    out << "\n";
    std::vector<std::pair<std::string, int64_t>> ops(s.opCounts.begin(), s.opCounts.end());
    std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [op, count] : ops) out << "  " << std::left << std::setw(28) << op << count << "\n";
    out << "\nParameters: " << withThousands(s.parameters.count) << " (" << humanBytes(s.parameters.bytes) << ")";
    if (s.int64Parameters.count)
        out << "; INT64: " << withThousands(s.int64Parameters.count) << " (" << humanBytes(s.int64Parameters.bytes)
            << ")";
    if (s.otherParameters.count)
        out << "; in Constant nodes and subgraph bodies: " << withThousands(s.otherParameters.count) << " ("
            << humanBytes(s.otherParameters.bytes) << ")";
    out << "\n";
    for (const auto& [dtype, totals] : s.byDtype)
        out << "  " << std::left << std::setw(10) << dtype << withThousands(totals.count) << " ("
            << humanBytes(totals.bytes) << ")\n";
    out << "MACs: " << withThousands(s.macs) << (s.macsApproximate ? " (unknown dimensions counted as 1)" : "") << "\n";
    out << "Q/DQ pairs: " << s.qdqPairs.size() << "\n";
    for (const auto& q : s.qdqPairs) {
        out << "  " << (q.isWeight ? "weight     " : "activation ") << q.tensor << " -> "
            << (q.layer.empty() ? "(no consumer)"
                                : q.layer + " (" + q.layerOp + ") input " + std::to_string(q.layerInput));
        if (q.perChannel)
            out << ", per-channel axis " << q.axis << " (" << q.scaleCount << " scales)";
        else
            out << ", scale " << q.firstScale << " zero point " << q.firstZeroPoint;
        out << "\n";
    }
    out << "\nDiagnostics: " << (s.diagnostics.empty() ? "none" : std::to_string(s.diagnostics.size())) << "\n";
    for (const auto& d : s.diagnostics)
        out << "  [" << severityName(d.severity) << "] " << d.source << ": " << d.message << "\n";
    return out.str();
}

}  // namespace ql
