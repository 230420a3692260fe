#include "core/engine/layer_info_reader.h"

#include <nlohmann/json.hpp>

#include "core/engine/report_file.h"
#include "core/engine/tensor_format.h"

namespace ql {

namespace {

using nlohmann::json;

// "layer 3 ('Conv_12')" for messages.
std::string layerLabel(size_t index, const std::string& name) {
    std::string label = "layer " + std::to_string(index);
    if (!name.empty()) label += " ('" + name + "')";
    return label;
}

// An optional string member; an error when it is there with another type.
Result<std::string> optionalString(const json& object, const char* key, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::string();
    if (it->is_string()) return it->get<std::string>();
    if (it->is_number()) return it->dump();
    return invalidArgument(where + ": \"" + key + "\" is not a string");
}

// The type of a tensor: 11.x writes "DataType" beside "Format"; 8.x/10.x one "Format/Datatype" string. The 11.x
// migration guide shows "DataType" for the I/O tensors; the per-layer key is not shown there, so "Datatype" is
// accepted too.
Result<EngineTensor> tensorFromJson(const json& object, const std::string& where, bool& separateType) {
    if (!object.is_object()) return invalidArgument(where + ": a tensor is not an object");
    EngineTensor tensor;
    QL_ASSIGN_OR_RETURN(tensor.name, optionalString(object, "Name", where));
    if (const auto dims = object.find("Dimensions"); dims != object.end() && dims->is_array())
        for (const json& d : *dims)
            if (d.is_number_integer()) tensor.dimensions.push_back(d.get<int64_t>());
    QL_ASSIGN_OR_RETURN(std::string combined, optionalString(object, "Format/Datatype", where));
    QL_ASSIGN_OR_RETURN(std::string format, optionalString(object, "Format", where));
    QL_ASSIGN_OR_RETURN(std::string dataType, optionalString(object, "DataType", where));
    if (dataType.empty()) {
        QL_ASSIGN_OR_RETURN(dataType, optionalString(object, "Datatype", where));
    }
    if (!dataType.empty()) separateType = true;
    tensor.format = !combined.empty() ? combined : format;
    tensor.precision = precisionFromFormat(!dataType.empty() ? dataType : tensor.format);
    return tensor;
}

Result<std::vector<EngineTensor>> tensorsFromJson(const json& layer, const char* key, const std::string& where,
                                                  bool& separateType) {
    std::vector<EngineTensor> tensors;
    const auto it = layer.find(key);
    if (it == layer.end() || it->is_null()) return tensors;
    if (!it->is_array()) return invalidArgument(where + ": \"" + key + "\" is not an array");
    for (const json& t : *it) {
        QL_ASSIGN_OR_RETURN(EngineTensor tensor, tensorFromJson(t, where + " " + key, separateType));
        tensors.push_back(std::move(tensor));
    }
    return tensors;
}

Result<EngineLayer> layerFromJson(const json& object, size_t index, const std::string& label, bool& separateType) {
    EngineLayer layer;
    if (object.is_string()) {  // --profilingVerbosity=layer_names_only
        layer.name = object.get<std::string>();
        return layer;
    }
    if (!object.is_object()) return invalidArgument(label + ": " + layerLabel(index, {}) + " is not an object");
    const auto name = object.find("Name");
    if (name == object.end() || !name->is_string() || name->get<std::string>().empty())
        return invalidArgument(label + ": " + layerLabel(index, {}) + " has no \"Name\"");
    layer.name = name->get<std::string>();
    const std::string where = label + ": " + layerLabel(index, layer.name);
    QL_ASSIGN_OR_RETURN(layer.type, optionalString(object, "LayerType", where));
    QL_ASSIGN_OR_RETURN(layer.inputs, tensorsFromJson(object, "Inputs", where, separateType));
    QL_ASSIGN_OR_RETURN(layer.outputs, tensorsFromJson(object, "Outputs", where, separateType));
    if (const auto weights = object.find("Weights"); weights != object.end() && weights->is_object()) {
        QL_ASSIGN_OR_RETURN(const std::string type, optionalString(*weights, "Type", where + " Weights"));
        layer.weights = precisionFromFormat(type);
    }
    QL_ASSIGN_OR_RETURN(layer.tactic, optionalString(object, "TacticName", where));
    if (layer.tactic.empty()) {
        QL_ASSIGN_OR_RETURN(layer.tactic, optionalString(object, "TacticValue", where));
    }
    QL_ASSIGN_OR_RETURN(layer.origin, optionalString(object, "Origin", where));
    QL_ASSIGN_OR_RETURN(layer.metadata, optionalString(object, "Metadata", where));
    return layer;
}

// 8.x/10.x: "Bindings": ["input", "output"]; 11.x: "I/O Tensors": [{"Name", "IOMode", "DataType", ...}].
Result<std::vector<EngineIoTensor>> ioTensorsFromJson(const json& root, const std::string& label) {
    std::vector<EngineIoTensor> tensors;
    if (const auto bindings = root.find("Bindings"); bindings != root.end() && bindings->is_array()) {
        for (const json& b : *bindings) {
            if (!b.is_string()) return invalidArgument(label + ": a \"Bindings\" entry is not a name");
            tensors.push_back({b.get<std::string>(), {}, EnginePrecision::Unknown});
        }
    }
    if (const auto io = root.find("I/O Tensors"); io != root.end() && io->is_array()) {
        for (const json& t : *io) {
            if (!t.is_object()) return invalidArgument(label + ": an \"I/O Tensors\" entry is not an object");
            EngineIoTensor tensor;
            QL_ASSIGN_OR_RETURN(tensor.name, optionalString(t, "Name", label + " I/O Tensors"));
            QL_ASSIGN_OR_RETURN(tensor.mode, optionalString(t, "IOMode", label + " I/O Tensors"));
            QL_ASSIGN_OR_RETURN(const std::string type, optionalString(t, "DataType", label + " I/O Tensors"));
            tensor.precision = precisionFromFormat(type);
            tensors.push_back(std::move(tensor));
        }
    }
    return tensors;
}

}  // namespace

Result<EngineReport> layerInfoFromJson(const json& root, const std::string& label) {
    const auto layers = root.is_object() ? root.find("Layers") : root.end();
    if (!root.is_object() || layers == root.end() || !layers->is_array())
        return invalidArgument(label +
                               ": no \"Layers\" array; expected the file trtexec writes with --exportLayerInfo "
                               "(build with --profilingVerbosity=detailed)");
    EngineReport report;
    bool separateType = false;
    for (size_t i = 0; i < layers->size(); ++i) {
        QL_ASSIGN_OR_RETURN(EngineLayer layer, layerFromJson((*layers)[i], i, label, separateType));
        report.layers.push_back(std::move(layer));
    }
    if (report.layers.empty()) return invalidArgument(label + ": \"Layers\" is empty");
    QL_ASSIGN_OR_RETURN(report.ioTensors, ioTensorsFromJson(root, label));
    report.schema = root.contains("I/O Tensors") || separateType ? LayerInfoSchema::Trt11 : LayerInfoSchema::Trt10;
    return report;
}

Result<EngineReport> readLayerInfo(const std::string& path, const std::string& option) {
    const std::string label = option + " " + path;
    QL_ASSIGN_OR_RETURN(const json root, readReportJson(path, option));
    QL_ASSIGN_OR_RETURN(EngineReport report, layerInfoFromJson(root, label));
    report.layersFile = path;
    return report;
}

}  // namespace ql
