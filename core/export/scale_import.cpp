#include "core/export/scale_import.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/export/carried_model.h"
#include "core/export/qdq_import.h"
#include "core/export/qoperator_import.h"
#include "core/model/model.h"
#include "core/quant/calibration_file.h"

namespace ql {
namespace {

constexpr const char* kOtherFormats =
    "--calib reads QuantLens CALIB.json, TensorRT calibration caches, ONNX Runtime calibration.json and "
    "calibration.cache, Q/DQ ONNX models and QuantLens projects (.qlproj)";

Status lineError(const std::string& label, size_t line, const std::string& what) {
    return invalidArgument(label + ":" + std::to_string(line) + ": " + what);
}

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Calls `fn(lineNumber, line)` for each line (without its end of line); stops at the first error.
template <typename Fn>
Status forEachLine(std::string_view text, const Fn& fn) {
    size_t number = 0;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        QL_RETURN_IF_ERROR(fn(++number, line));
        start = end + 1;
    }
    return Status::ok();
}

ScaleEntry symmetricEntry(std::string name, float amax) {
    return {std::move(name), amax, -amax, amax};
}

std::optional<CalibrationMethod> trtMethod(std::string_view algorithm) {
    if (algorithm.starts_with("EntropyCalibration")) return CalibrationMethod::Entropy;
    if (algorithm == "MinMaxCalibration") return CalibrationMethod::MinMax;
    return std::nullopt;
}

Result<ScaleEntry> trtCacheLine(std::string_view line, size_t number, const std::string& label) {
    const auto colon = line.rfind(':');
    const std::string_view hex = colon == std::string_view::npos ? std::string_view() : trim(line.substr(colon + 1));
    const bool isHex = !hex.empty() && hex.size() <= 8 && std::all_of(hex.begin(), hex.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (colon == 0 || !isHex)
        return lineError(label, number, "expected \"<tensor name>: <8 hex digits>\" in a TensorRT calibration cache");
    const auto bits = static_cast<uint32_t>(std::strtoul(std::string(hex).c_str(), nullptr, 16));
    const float scale = std::bit_cast<float>(bits);
    if (!std::isfinite(scale) || scale <= 0.0f)
        return lineError(label, number, "the scale " + std::string(hex) + " is not a positive finite float");
    return symmetricEntry(std::string(line.substr(0, colon)), amaxForScale(scale));
}

std::optional<float> finiteFloat(std::string_view text) {
    const std::string s(text);
    char* end = nullptr;
    const float value = std::strtof(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

// The line of the first occurrence of `"key"`, or 0.
size_t lineOfKey(std::string_view text, const std::string& key) {
    const auto at = text.find("\"" + key + "\"");
    return at == std::string_view::npos ? 0
                                        : 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// A number, or ONNX Runtime's encoding of a numpy value: {"data": x or [x], "dtype": ..., "CLS": "numpy.array"}.
std::optional<float> ortNumber(const nlohmann::json& j) {
    if (j.is_number()) return j.get<float>();
    if (j.is_object() && j.contains("data")) return ortNumber(j["data"]);
    if (j.is_array() && j.size() == 1) return ortNumber(j[0]);
    return std::nullopt;
}

Result<ScaleEntry> ortJsonEntry(const std::string& name, const nlohmann::json& j, const std::string& label,
                                std::string_view text) {
    std::optional<float> lo, hi;
    if (j.is_array() && j.size() == 2) lo = ortNumber(j[0]), hi = ortNumber(j[1]);
    if (j.is_object() && j.contains("lowest") && j.contains("highest"))
        lo = ortNumber(j["lowest"]), hi = ortNumber(j["highest"]);
    if (!lo || !hi || !std::isfinite(*lo) || !std::isfinite(*hi) || *lo > *hi)
        return lineError(label, lineOfKey(text, name),
                         "tensor '" + name +
                             "': expected [min, max] or {\"lowest\": min, \"highest\": max} with finite "
                             "min <= max (ONNX Runtime calibration.json)");
    return ScaleEntry{name, std::max(std::fabs(*lo), std::fabs(*hi)), *lo, *hi};
}

Result<std::string> readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError(path + ": cannot open the calibration file");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return ioError(path + ": cannot read the calibration file");
    return bytes;
}

// Protobuf (an ONNX model) holds control bytes; the text formats do not.
bool looksBinary(std::string_view bytes) {
    const auto head = bytes.substr(0, 4096);
    return std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && u != '\t' && u != '\n' && u != '\r';
    });
}

Result<ImportedScales> importQdqModel(const Graph& graph, const std::string& path) {
    auto model = Model::load(path);
    if (!model)
        return invalidArgument(path + ": not a calibration file QuantLens reads (" + model.status().message() + "); " +
                               kOtherFormats + " (not ONNX Runtime's calibration.flatbuffers)");
    const bool qoperator = hasQOperatorNodes((*model)->graph());
    if (!hasQdqNodes((*model)->graph()) && !qoperator)
        return invalidArgument(path + ": this ONNX model has no QuantizeLinear/DequantizeLinear nodes, so no scales");
    QL_ASSIGN_OR_RETURN(auto dequantized, carriedModel(std::move(*model)));
    if (qoperator && dequantized.scales.activations.empty())
        return invalidArgument(path + ": no activation scales to read: " + dequantized.qoperatorImport +
                               "; calibrate the model instead (quantlens-cli calibrate)");
    ScaleTable table;
    for (const auto& range : dequantized.scales.activations)
        table.entries.push_back({range.name, range.amax, range.min, range.max});
    ImportedScales imported = scalesForGraph(graph, table, ScaleFormat::QdqModel);
    for (WeightRange weight : dequantized.scales.weights) {
        const auto v = graph.findValue(weight.name);
        if (!v || graph.value(*v).consumers.empty()) continue;
        weight.layer = graph.value(*v).consumers.front();
        imported.calibration.weights.push_back(std::move(weight));
    }
    return imported;
}

Result<ImportedScales> importJson(const Graph& graph, const std::string& path, const std::string& text) {
    QL_ASSIGN_OR_RETURN(nlohmann::json json, parseJsonText(text, path));
    if (json.is_object() && json.contains("format")) {
        // A project saved by the window keeps its calibration inline (ui/project_file.h).
        if (json["format"] == "quantlens-project") {
            const auto section = json.find("calibration");
            if (section == json.end() || !section->is_object())
                return invalidArgument(path +
                                       ": this project has no calibration yet; calibrate it in the window or "
                                       "pass a CALIB.json");
            QL_ASSIGN_OR_RETURN(auto calibration, calibrationFromJson(graph, *section, path + " (calibration)"));
            return ImportedScales{std::move(calibration), ScaleFormat::Project, {}};
        }
        if (json["format"] != "quantlens-calibration")
            return invalidArgument(path + ": unknown \"format\"; " + kOtherFormats);
        QL_ASSIGN_OR_RETURN(auto calibration, calibrationFromJson(graph, json, path));
        return ImportedScales{std::move(calibration), ScaleFormat::QuantLens, {}};
    }
    QL_ASSIGN_OR_RETURN(auto table, parseOrtCalibrationJson(text, path));
    return scalesForGraph(graph, table, ScaleFormat::OrtJson);
}

}  // namespace

const char* scaleFormatName(ScaleFormat format) {
    switch (format) {
        case ScaleFormat::QuantLens:
            return "QuantLens calibration";
        case ScaleFormat::TensorRtCache:
            return "TensorRT calibration cache";
        case ScaleFormat::OrtJson:
            return "ONNX Runtime calibration.json";
        case ScaleFormat::OrtCacheText:
            return "ONNX Runtime calibration.cache";
        case ScaleFormat::QdqModel:
            return "Q/DQ model";
        case ScaleFormat::Project:
            return "QuantLens project";
    }
    return "?";
}

Result<ScaleTable> parseTrtCache(std::string_view text, const std::string& label) {
    ScaleTable table;
    QL_RETURN_IF_ERROR(forEachLine(text, [&](size_t number, std::string_view line) -> Status {
        if (number == 1) {
            const auto dash = line.find('-', 4);
            if (!line.starts_with("TRT-") || dash == std::string_view::npos || dash == 4)
                return lineError(label, 1,
                                 "expected the header TRT-<version>-<calibrator> of a TensorRT calibration cache");
            table.method = trtMethod(line.substr(dash + 1));
            return Status::ok();
        }
        if (trim(line).empty()) return Status::ok();
        QL_ASSIGN_OR_RETURN(auto entry, trtCacheLine(line, number, label));
        table.entries.push_back(std::move(entry));
        return Status::ok();
    }));
    if (text.empty()) return lineError(label, 1, "empty file; expected a TensorRT calibration cache");
    return table;
}

Result<ScaleTable> parseOrtCacheText(std::string_view text, const std::string& label) {
    ScaleTable table;
    QL_RETURN_IF_ERROR(forEachLine(text, [&](size_t number, std::string_view line) -> Status {
        line = trim(line);
        if (line.empty()) return Status::ok();
        const auto space = line.find_last_of(" \t");
        const auto value = space == std::string_view::npos ? std::nullopt : finiteFloat(line.substr(space + 1));
        if (!value || *value < 0.0f || trim(line.substr(0, space)).empty())
            return lineError(
                label, number,
                "expected \"<tensor name> <amax>\" (ONNX Runtime calibration.cache); " + std::string(kOtherFormats));
        table.entries.push_back(symmetricEntry(std::string(trim(line.substr(0, space))), *value));
        return Status::ok();
    }));
    if (table.entries.empty()) return lineError(label, 1, std::string("no scales in the file; ") + kOtherFormats);
    return table;
}

Result<ScaleTable> parseOrtCalibrationJson(std::string_view text, const std::string& label) {
    QL_ASSIGN_OR_RETURN(const nlohmann::json json, parseJsonText(text, label));
    if (!json.is_object())
        return lineError(label, 1, "expected a JSON object of tensor ranges (ONNX Runtime calibration.json)");
    const bool wrapped =
        memberString(json, "CLS") == "TensorsData" && json.contains("data") && json["data"].is_object();
    const nlohmann::json& tensors = wrapped ? json["data"] : json;
    ScaleTable table;
    for (const auto& [name, value] : tensors.items()) {
        if (name == "CLS") continue;
        QL_ASSIGN_OR_RETURN(auto entry, ortJsonEntry(name, value, label, text));
        table.entries.push_back(std::move(entry));
    }
    return table;
}

ImportedScales scalesForGraph(const Graph& graph, const ScaleTable& table, ScaleFormat format) {
    std::unordered_map<std::string, const ScaleEntry*> byName;
    for (const auto& entry : table.entries) byName[entry.name] = &entry;
    ImportedScales imported;
    imported.format = format;
    if (table.method) imported.calibration.config.method = *table.method;
    for (const Value& value : graph.values()) {
        const auto it = byName.find(value.name);
        if (it == byName.end()) continue;
        TensorRange range;
        range.name = value.name;
        range.amax = it->second->amax, range.min = it->second->min, range.max = it->second->max;
        range.method = imported.calibration.config.method;
        imported.calibration.activations.push_back(std::move(range));
        byName.erase(it);
    }
    for (const auto& entry : table.entries)
        if (byName.count(entry.name) != 0) imported.unknownTensors.push_back(entry.name);
    return imported;
}

Result<ImportedScales> importScales(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(const std::string bytes, readWholeFile(path));
    std::string_view text = bytes;
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark
    const std::string_view start = text.substr(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
    if (looksBinary(text)) return importQdqModel(graph, path);
    if (start.starts_with("{")) return importJson(graph, path, std::string(text));
    if (start.starts_with("TRT-")) {
        QL_ASSIGN_OR_RETURN(auto table, parseTrtCache(text, path));
        return scalesForGraph(graph, table, ScaleFormat::TensorRtCache);
    }
    QL_ASSIGN_OR_RETURN(auto table, parseOrtCacheText(text, path));
    return scalesForGraph(graph, table, ScaleFormat::OrtCacheText);
}

}  // namespace ql
