#include "core/engine/engine_mapping.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/engine/onnx_layer_names.h"

namespace ql {

namespace {

// Ops that compute nothing TensorRT would time as a layer of their own: Q/DQ (fused or turned into reformats),
// constants, shape arithmetic and reshapes (folded or NoOps), casts (reformats).
const std::set<std::string_view> kNotCompute = {
    "QuantizeLinear", "DequantizeLinear", "Constant", "ConstantOfShape", "Identity", "Shape",    "Size",
    "Reshape",        "Flatten",          "Squeeze",  "Unsqueeze",       "Cast",     "CastLike", "Dropout",
};

std::vector<NodeId> nodesNamed(const Graph& graph, const std::vector<std::string>& names) {
    std::vector<NodeId> nodes;
    for (const std::string& name : names)
        if (const auto id = graph.findNode(name); id && std::find(nodes.begin(), nodes.end(), *id) == nodes.end())
            nodes.push_back(*id);
    return nodes;
}

std::vector<NodeId> producersOfOutputs(const Graph& graph, const EngineLayer& layer) {
    std::vector<NodeId> nodes;
    for (const EngineTensor& t : layer.outputs) {
        const auto value = graph.findValue(t.name);
        if (!value) continue;
        const NodeId producer = graph.value(*value).producer;
        if (producer != kNoId && std::find(nodes.begin(), nodes.end(), producer) == nodes.end())
            nodes.push_back(producer);
    }
    return nodes;
}

LayerMapping mapLayer(const Graph& graph, const EngineLayer& layer) {
    if (auto nodes = nodesNamed(graph, metadataOnnxNames(layer.metadata)); !nodes.empty())
        return {std::move(nodes), MappingSource::Metadata, std::nullopt};
    // A reformat's name names the layer it feeds, not nodes of its own.
    if (!reformatTarget(layer.name)) {
        if (auto nodes = nodesNamed(graph, fusedNameParts(layer.name)); !nodes.empty())
            return {std::move(nodes), MappingSource::FusedName, std::nullopt};
        if (auto nodes = producersOfOutputs(graph, layer); !nodes.empty())
            return {std::move(nodes), MappingSource::TensorNames, std::nullopt};
    }
    return {};
}

// The layer a reformat converts for: named in "Reformatting CopyNode for ... to X", else the first layer after it
// that reads one of its outputs.
std::optional<size_t> reformatFeeds(const EngineReport& report, size_t index,
                                    const std::unordered_map<std::string, size_t>& byName) {
    const EngineLayer& layer = report.layers[index];
    if (const auto target = reformatTarget(layer.name)) {
        const auto it = byName.find(*target);
        if (it != byName.end()) return it->second;
    }
    for (size_t j = index + 1; j < report.layers.size(); ++j)
        for (const EngineTensor& in : report.layers[j].inputs)
            for (const EngineTensor& out : layer.outputs)
                if (!out.name.empty() && in.name == out.name) return j;
    return std::nullopt;
}

}  // namespace

const char* mappingSourceName(MappingSource source) {
    switch (source) {
        case MappingSource::Metadata:
            return "metadata";
        case MappingSource::FusedName:
            return "fused name";
        case MappingSource::TensorNames:
            return "tensor names";
        case MappingSource::None:
            break;
    }
    return "";
}

std::vector<bool> computeNodes(const Graph& graph) {
    std::vector<bool> activation(graph.values().size(), false);
    for (ValueId v : graph.inputs()) activation[static_cast<size_t>(v)] = true;
    std::vector<bool> compute(graph.nodes().size(), false);
    for (const Node& node : graph.nodes()) {  // topological order
        const bool fed = std::any_of(node.inputs.begin(), node.inputs.end(),
                                     [&](ValueId v) { return v != kNoId && activation[static_cast<size_t>(v)]; });
        if (!fed || node.opType == "Shape" || node.opType == "Size") continue;
        for (ValueId v : node.outputs)
            if (v != kNoId) activation[static_cast<size_t>(v)] = true;
        compute[static_cast<size_t>(node.id)] = !kNotCompute.contains(node.opType);
    }
    return compute;
}

EngineMapping mapEngineToModel(const EngineReport& report, const Graph* graph) {
    EngineMapping mapping;
    mapping.layers.resize(report.layers.size());
    std::unordered_map<std::string, size_t> byName;
    for (size_t i = 0; i < report.layers.size(); ++i) byName.emplace(report.layers[i].name, i);
    for (size_t i = 0; i < report.layers.size(); ++i) {
        if (graph) mapping.layers[i] = mapLayer(*graph, report.layers[i]);
        if (report.layers[i].isReformat()) mapping.layers[i].feeds = reformatFeeds(report, i, byName);
    }
    if (!graph) return mapping;
    mapping.nodeLayers.resize(graph->nodes().size());
    for (size_t i = 0; i < mapping.layers.size(); ++i) {
        for (NodeId node : mapping.layers[i].nodes) mapping.nodeLayers[static_cast<size_t>(node)].push_back(i);
        if (mapping.layers[i].nodes.empty() && !report.layers[i].isReformat()) mapping.unmappedLayers.push_back(i);
    }
    const std::vector<bool> compute = computeNodes(*graph);
    for (const Node& node : graph->nodes())
        if (compute[static_cast<size_t>(node.id)] && mapping.nodeLayers[static_cast<size_t>(node.id)].empty())
            mapping.unmappedNodes.push_back(node.id);
    return mapping;
}

}  // namespace ql
