#pragma once
// Which ONNX nodes each engine layer came from, found in this order and never guessed:
//   1. metadata: the "[ONNX Layer: name]" entries of the layer (10.x and later);
//   2. fused name: the parts of the layer's name joined with " + " (PWN(...) unwrapped) that name a node;
//   3. tensor names: the nodes of the model that produce the layer's output tensors.
// The first source that names at least one node of the model is used. A reformat is attached to the layer it
// feeds: the X of "Reformatting CopyNode for Input Tensor 0 to X", else the layer that reads its output.
// What maps to nothing is listed: the model's compute nodes found in no layer and the engine's non-reformat
// layers that name no node of the model.
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine_report.h"
#include "core/model/graph.h"

namespace ql {

enum class MappingSource { None, Metadata, FusedName, TensorNames };

const char* mappingSourceName(MappingSource source);  // "metadata", "fused name", "tensor names"; "" for None

struct LayerMapping {
    std::vector<NodeId> nodes;  // Q/DQ nodes included, in the order the report names them
    MappingSource source = MappingSource::None;
    std::optional<size_t> feeds;  // a reformat: the engine layer it converts a tensor for
};

struct EngineMapping {
    std::vector<LayerMapping> layers;             // one per engine layer
    std::vector<std::vector<size_t>> nodeLayers;  // per node of the model: the engine layers that hold it
    std::vector<NodeId> unmappedNodes;            // compute nodes of the model in no layer, graph order
    std::vector<size_t> unmappedLayers;           // non-reformat layers naming no node of the model
};

// A node that computes on activations: not a Q/DQ, constant, shape, reshape-like or cast node, and fed (through
// anything but Shape/Size) by a graph input. These are the nodes every engine must account for.
std::vector<bool> computeNodes(const Graph& graph);

// `graph` null: the engine alone (only reformats are attached; no node is mapped).
EngineMapping mapEngineToModel(const EngineReport& report, const Graph* graph);

}  // namespace ql
