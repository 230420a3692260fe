#include "core/export/trtexec_command.h"

#include <filesystem>

#include "core/common/atomic_file.h"

namespace ql {
namespace {

bool isFloatType(DataType dtype) {
    return dtype == DataType::Float || dtype == DataType::Float16 || dtype == DataType::BFloat16;
}

// The float outputs of a node, or 0 when any output is not float (shape/index layers are never pinned).
size_t floatOutputCount(const Graph& graph, const Node& node) {
    size_t count = 0;
    for (ValueId v : node.outputs) {
        if (v == kNoId) continue;
        if (!isFloatType(graph.value(v).type.dtype)) return 0;
        ++count;
    }
    return count;
}

// The name TensorRT's ONNX parser gives the layer (importerUtils getNodeName).
std::string layerName(const Graph& graph, const Node& node) {
    if (!node.nameGenerated) return node.name;
    const ValueId first = node.outputs.empty() ? kNoId : node.outputs.front();
    return "node_of_" + (first == kNoId ? std::string() : graph.value(first).name);
}

// The name as one item of a trtexec layer list; an error when trtexec cannot parse it back.
Result<std::string> trtexecLayerName(const std::string& name) {
    for (char c : {',', '\'', '*'})
        if (name.find(c) != std::string::npos)
            return invalidArgument("node '" + name + "': trtexec cannot name a layer holding '" + std::string(1, c) +
                                   "' in --layerPrecisions (lists split at ',', quotes are stripped, '*' is a "
                                   "wildcard); rename the node or leave out --trtexec");
    return name.find(':') == std::string::npos ? name : "'" + name + "'";
}

struct PinnedLists {
    std::string precisions;
    std::string outputTypes;
};

Result<PinnedLists> pinnedLayers(const QdqExport& result) {
    const Graph& graph = result.prepared->graph();
    PinnedLists lists;
    for (const Node& node : graph.nodes()) {
        const Precision precision = result.placement.layers[static_cast<size_t>(node.id)].precision;
        const size_t outputs = floatOutputCount(graph, node);
        if (precision == Precision::Int8 || outputs == 0 || node.opType == "Constant") continue;
        QL_ASSIGN_OR_RETURN(const std::string name, trtexecLayerName(layerName(graph, node)));
        const std::string type = precisionName(precision);
        std::string types = type;
        for (size_t i = 1; i < outputs; ++i) types += "+" + type;
        const std::string separator = lists.precisions.empty() ? "" : ",";
        lists.precisions += separator + name + ":" + type;
        lists.outputTypes += separator + name + ":" + types;
    }
    return lists;
}

}  // namespace

std::string shellQuote(const std::string& text) {
    const auto safe = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("_-./:=,+@%").find(c) != std::string_view::npos;
    };
    if (!text.empty() && std::all_of(text.begin(), text.end(), safe)) return text;
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

Result<std::string> trtexecCommand(const QdqExport& result, const std::string& onnxPath) {
    QL_ASSIGN_OR_RETURN(const PinnedLists pinned, pinnedLayers(result));
    const std::string engine = std::filesystem::path(onnxPath).replace_extension(".engine").string();
    std::string text = "#!/bin/sh\n# Builds the TensorRT engine of " + onnxPath +
                       " (explicit Q/DQ INT8; layers the plan keeps in FP16/FP32 pinned). Written by quantlens-cli.\n";
    text += "trtexec " + shellQuote("--onnx=" + onnxPath) + " --int8 --fp16 " + shellQuote("--saveEngine=" + engine);
    if (!pinned.precisions.empty()) {
        text += " \\\n  --precisionConstraints=obey \\\n  " + shellQuote("--layerPrecisions=" + pinned.precisions) +
                " \\\n  " + shellQuote("--layerOutputTypes=" + pinned.outputTypes);
    }
    return text + "\n";
}

Status saveTrtexecCommand(const QdqExport& result, const std::string& onnxPath, const std::string& path) {
    QL_ASSIGN_OR_RETURN(const std::string text, trtexecCommand(result, onnxPath));
    return writeFileAtomically(path, text);
}

}  // namespace ql
