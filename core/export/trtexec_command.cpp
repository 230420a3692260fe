#include "core/export/trtexec_command.h"

#include <algorithm>
#include <filesystem>

#include "core/common/atomic_file.h"
#include "core/model/body_path.h"

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
    int count = 0;
};

// The FP32 layers, pinned under weak typing; FP16 is left to TensorRT (--fp16), INT8 to the Q/DQ nodes.
Result<PinnedLists> pinnedLayers(const QdqExport& result) {
    PinnedLists lists;
    for (const PinnedFp32Layer& pinned : pinnedFp32Layers(result)) {
        const Graph& graph = *pinned.graph;
        const Node& node = graph.node(pinned.node);
        QL_ASSIGN_OR_RETURN(const std::string name, trtexecLayerName(layerName(graph, node)));
        const std::string type = precisionName(Precision::Fp32);
        std::string types = type;
        for (size_t i = 1; i < floatOutputCount(graph, node); ++i) types += "+" + type;
        const std::string separator = lists.precisions.empty() ? "" : ",";
        lists.precisions += separator + name + ":" + type;
        lists.outputTypes += separator + name + ":" + types;
        ++lists.count;
    }
    return lists;
}

void appendPinnedFp32Layers(const QdqExport& result, const std::string& path, std::vector<PinnedFp32Layer>& pinned) {
    const Graph& graph = result.prepared->graph();
    for (const Node& node : graph.nodes())
        if (result.placement.layers[static_cast<size_t>(node.id)].precision == Precision::Fp32 &&
            floatOutputCount(graph, node) > 0 && node.opType != "Constant")
            pinned.push_back({&graph, node.id, path});
    for (const QdqBodyExport& body : result.bodies)
        appendPinnedFp32Layers(*body.body, path + bodyPathStep(body.node, body.attribute), pinned);
}

}  // namespace

std::vector<PinnedFp32Layer> pinnedFp32Layers(const QdqExport& result) {
    std::vector<PinnedFp32Layer> pinned;
    if (result.target.typing == TrtTyping::Strong) return pinned;
    appendPinnedFp32Layers(result, "", pinned);
    return pinned;
}

namespace {

bool hasQdq(const QdqExport& result) {
    return !result.placement.edges.empty();
}

std::vector<std::string> precisionFlags(const QdqExport& result) {
    if (result.target.typing == TrtTyping::Weak) {
        if (!hasQdq(result)) return {"--fp16"};
        return {"--int8", "--fp16"};
    }
    if (result.target.version == TrtVersion::Trt10) return {"--stronglyTyped"};
    return {};
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

Result<TrtexecPlan> trtexecPlan(const QdqExport& result) {
    TrtexecPlan plan;
    plan.flags = precisionFlags(result);
    if (result.target.typing == TrtTyping::Weak) {
        QL_ASSIGN_OR_RETURN(const PinnedLists lists, pinnedLayers(result));
        plan.pinnedLayers = lists.count;
        if (hasQdq(result))
            plan.reliesOn.push_back(
                "--int8: the builder runs the Q/DQ layers in INT8 only with this flag (weak typing)");
        else
            plan.reliesOn.push_back(
                "no --int8: the model has no Q/DQ node, and --int8 alone would quantize with placeholder ranges");
        plan.reliesOn.push_back("--fp16: the layers outside INT8 run in FP16 or FP32, TensorRT's choice");
        if (plan.pinnedLayers > 0)
            plan.reliesOn.push_back("--precisionConstraints=obey --layerPrecisions --layerOutputTypes: " +
                                    std::to_string(plan.pinnedLayers) + " layers the plan keeps in FP32 are pinned");
        if (result.target.version == TrtVersion::Trt10)
            plan.reliesOn.push_back("weak typing: deprecated since TensorRT 10.12, removed in 11.0");
    } else {
        plan.reliesOn.push_back(
            "the model's own tensor types: INT8 from its Q/DQ nodes, FP16 from its float16 islands (" +
            std::to_string(result.islands.nodes) + " nodes), FP32 elsewhere; no precision flag, nothing pinned");
        if (result.target.version == TrtVersion::Trt10)
            plan.reliesOn.push_back("--stronglyTyped: TensorRT 10.x builds weakly typed without it");
    }
    return plan;
}

nlohmann::json trtexecPlanJson(const TrtexecPlan& plan) {
    return {{"flags", plan.flags}, {"pinned_fp32_layers", plan.pinnedLayers}, {"relies_on", plan.reliesOn}};
}

std::string pathFromScriptFolder(const std::string& model, const std::string& script) {
    std::error_code error;
    const auto modelPath = std::filesystem::absolute(model, error).lexically_normal();
    const auto folder = std::filesystem::absolute(script, error).parent_path().lexically_normal();
    if (error) return model;
    const auto relative = modelPath.lexically_relative(folder);
    return relative.empty() ? modelPath.string() : relative.string();
}

Result<std::string> trtexecCommand(const QdqExport& result, const TrtexecScript& script) {
    QL_ASSIGN_OR_RETURN(const PinnedLists pinned, pinnedLayers(result));
    QL_ASSIGN_OR_RETURN(const std::string shapeFlags, trtexecShapeFlags(script.shapes));
    const std::string onnx =
        script.scriptPath.empty() ? script.onnxPath : pathFromScriptFolder(script.onnxPath, script.scriptPath);
    const std::string engine = std::filesystem::path(onnx).replace_extension(".engine").string();
    const TrtTarget& target = result.target;
    std::string text = "#!/bin/sh\n# Builds the TensorRT " + std::string(trtVersionName(target.version)) +
                       " engine of " + onnx + " (" + trtTargetName(target) + "; ";
    text += target.typing == TrtTyping::Weak
                ? "explicit Q/DQ INT8, FP16 where TensorRT chooses, layers the plan keeps in FP32 pinned)"
                : "INT8 from the Q/DQ nodes, FP16 from the model's float16 islands, no precision flags)";
    text += ".";
    if (!script.writer.empty()) text.append(" Written by ").append(script.writer).append(".");
    text += '\n';
    text += missingShapesComment(script.shapes);
    // The paths below are relative to the script's folder, wherever it is run from.
    if (!script.scriptPath.empty()) text += "cd \"$(dirname \"$0\")\" || exit 1\n";
    text += "trtexec " + shellQuote("--onnx=" + onnx);
    for (const auto& flag : precisionFlags(result)) text.append(" ").append(flag);
    text.append(" ").append(shellQuote("--saveEngine=" + engine));
    if (!script.extraArguments.empty()) {
        text += " \\\n ";
        for (const std::string& argument : script.extraArguments) text.append(" ").append(shellQuote(argument));
    }
    if (!shapeFlags.empty()) text += " \\\n " + shapeFlags;
    if (!pinned.precisions.empty()) {
        text += " \\\n  --precisionConstraints=obey \\\n  " + shellQuote("--layerPrecisions=" + pinned.precisions) +
                " \\\n  " + shellQuote("--layerOutputTypes=" + pinned.outputTypes);
    }
    return text + "\n";
}

Result<std::string> trtexecCommand(const QdqExport& result, const std::string& onnxPath, std::string_view writer) {
    return trtexecCommand(result, TrtexecScript{.onnxPath = onnxPath, .scriptPath = {}, .writer = std::string(writer)});
}

Status saveTrtexecCommand(const QdqExport& result, const TrtexecScript& script) {
    QL_ASSIGN_OR_RETURN(const std::string text, trtexecCommand(result, script));
    return writeFileAtomically(script.scriptPath, text);
}

Status saveTrtexecCommand(const QdqExport& result, const std::string& onnxPath, std::string_view writer,
                          const std::string& path) {
    return saveTrtexecCommand(result,
                              TrtexecScript{.onnxPath = onnxPath, .scriptPath = path, .writer = std::string(writer)});
}

}  // namespace ql
