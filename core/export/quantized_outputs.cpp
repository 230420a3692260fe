#include "core/export/quantized_outputs.h"

#include <unordered_map>
#include <unordered_set>

#include "core/export/proto_graph.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

using Initializers = std::unordered_map<std::string, const onnx::TensorProto*>;

Result<std::vector<float>> initializerValues(const Initializers& initializers, const onnx::NodeProto& node, int input) {
    const auto it = initializers.find(node.input(input));
    if (it == initializers.end())
        return invalidArgument("QuantizeLinear '" + node.name() + "': input " + std::to_string(input) + " ('" +
                               node.input(input) + "') is not an initializer; only constant scales can be described");
    return tensorAsFloats(*it->second);
}

// The element type of the codes: the zero point's type; UINT8 (the ONNX default) without one.
int32_t codeType(const Initializers& initializers, const onnx::NodeProto& node) {
    if (node.input_size() < 3 || node.input(2).empty()) return onnx::TensorProto::UINT8;
    return initializers.at(node.input(2))->data_type();
}

Result<QuantizationPoint> describe(const Initializers& initializers, const onnx::NodeProto& node) {
    QuantizationPoint point;
    point.node = node.name();
    point.input = node.input(0);
    point.output = node.output(0);
    QL_ASSIGN_OR_RETURN(point.scale, initializerValues(initializers, node, 1));
    if (node.input_size() >= 3 && !node.input(2).empty()) {
        QL_ASSIGN_OR_RETURN(point.zeroPoint, initializerValues(initializers, node, 2));
    } else {
        point.zeroPoint.assign(point.scale.size(), 0.0f);
    }
    for (const auto& attr : node.attribute())
        if (attr.name() == "axis") point.axis = attr.i();
    return point;
}

void addOutput(onnx::GraphProto& graph, const std::string& name, int32_t type) {
    auto* output = graph.add_output();
    output->set_name(name);
    output->mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

}  // namespace

Result<std::vector<QuantizationPoint>> exposeQuantizationPoints(onnx::GraphProto& graph) {
    Initializers initializers;
    for (const auto& init : graph.initializer()) initializers[init.name()] = &init;
    std::unordered_set<std::string> inputs, outputs;
    for (const auto& input : graph.input()) inputs.insert(input.name());
    for (const auto& output : graph.output()) outputs.insert(output.name());
    std::vector<QuantizationPoint> points;
    std::vector<std::pair<std::string, int32_t>> added;
    for (const auto& node : graph.node()) {
        if (node.op_type() != "QuantizeLinear" || node.input_size() < 2 || node.output_size() < 1) continue;
        if (initializers.count(node.input(0))) continue;  // a weight: its codes are constants
        QL_ASSIGN_OR_RETURN(QuantizationPoint point, describe(initializers, node));
        if (outputs.insert(point.output).second) added.emplace_back(point.output, codeType(initializers, node));
        // A graph input cannot be repeated as an output in every runtime; the caller has its values anyway.
        point.inputExposed = !inputs.count(point.input);
        if (point.inputExposed && outputs.insert(point.input).second)
            added.emplace_back(point.input, onnx::TensorProto::FLOAT);
        points.push_back(std::move(point));
    }
    for (const auto& [name, type] : added) addOutput(graph, name, type);
    return points;
}

void cutAtQuantizationPoints(onnx::GraphProto& graph, std::vector<QuantizationPoint>& points) {
    UniqueNames names(graph);
    std::unordered_map<std::string, QuantizationPoint*> byOutput;
    for (auto& point : points) {
        point.localOutput = names.make(point.output + "_local");
        byOutput[point.output] = &point;
    }
    for (auto& node : *graph.mutable_node()) {
        if (node.op_type() != "QuantizeLinear" || node.output_size() < 1) continue;
        const auto it = byOutput.find(node.output(0));
        if (it != byOutput.end()) node.set_output(0, it->second->localOutput);
    }
    // The codes become inputs, their local recomputation outputs (typed as the codes were).
    for (auto& output : *graph.mutable_output()) {
        const auto it = byOutput.find(output.name());
        if (it == byOutput.end()) continue;
        *graph.add_input() = output;
        output.set_name(it->second->localOutput);
    }
}

nlohmann::json quantizationPointsJson(const std::vector<QuantizationPoint>& points) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points)
        list.push_back({{"node", p.node},
                        {"input", p.input},
                        {"output", p.output},
                        {"scale", p.scale},
                        {"zero_point", p.zeroPoint},
                        {"axis", p.axis},
                        {"input_exposed", p.inputExposed},
                        {"local_output", p.localOutput}});
    return {{"format", "quantlens-quantization-points"}, {"version", 1}, {"points", std::move(list)}};
}

}  // namespace ql
