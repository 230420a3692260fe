#include "core/export/trtexec_shapes.h"

#include <algorithm>

#include "core/export/trtexec_command.h"

namespace ql {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
        parts.push_back(text.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

std::string shapeUsage() {
    return "write NAME=MINxDIMS:OPTxDIMS:MAXxDIMS (e.g. x=1x3x640x640:4x3x640x640:8x3x640x640), or NAME=DIMS for one "
           "shape";
}

Result<Shape> parseDims(const std::string& text, const std::string& problemPrefix) {
    Shape dims;
    for (const std::string& token : split(text, 'x')) {
        const bool digits = !token.empty() && token.size() <= 12 &&
                            std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits)
            return invalidArgument(problemPrefix + "'" + token + "' in '" + text + "' is not a dimension (a number)");
        dims.push_back(std::stoll(token));
    }
    return dims;
}

// "x" as an item of trtexec's shape lists: split at ',' then at the last ':', quotes stripped around the name.
Result<std::string> trtexecInputName(const std::string& name) {
    for (char c : {',', '\''})
        if (name.find(c) != std::string::npos)
            return invalidArgument("input '" + name + "': trtexec cannot name an input holding '" + std::string(1, c) +
                                   "' in --minShapes/--optShapes/--maxShapes; rename the input or leave out --trtexec");
    return name.find(':') == std::string::npos ? name : "'" + name + "'";
}

bool isDynamic(const TensorType& type) {
    return !type.hasShape || std::any_of(type.dims.begin(), type.dims.end(), [](const Dim& d) { return !d.known(); });
}

// Why `range` does not fit the declared shape of `input`, or "".
std::string misfit(const Value& input, const InputShapeRange& range) {
    if (!input.type.hasShape) return {};
    const auto& dims = input.type.dims;
    if (range.opt.size() != dims.size())
        return "the model declares " + std::to_string(dims.size()) + " dimensions " + input.type.shapeString() +
               ", the shapes have " + std::to_string(range.opt.size());
    for (size_t d = 0; d < dims.size(); ++d) {
        if (!dims[d].known()) continue;
        for (const Shape* shape : {&range.min, &range.opt, &range.max})
            if ((*shape)[d] != dims[d].size)
                return "dimension " + std::to_string(d) + " is fixed at " + std::to_string(dims[d].size) +
                       " in the model " + input.type.shapeString() + ", the shapes give " + std::to_string((*shape)[d]);
    }
    return {};
}

// Calibration stacks samples on axis 0 in batches of its own size (8 unless the model fixes it), so an open axis 0 is
// a batch the deployment chooses: its profile starts at 1 and keeps the calibration's batch as opt and max.
InputShapeRange calibratedRange(const Value& input, InputShapeRange range) {
    if (!input.type.dims.empty() && !input.type.dims[0].known() && !range.min.empty()) range.min[0] = 1;
    return range;
}

const InputShapeRange* findRange(const std::vector<InputShapeRange>& ranges, const std::string& input) {
    const auto it = std::find_if(ranges.begin(), ranges.end(), [&](const auto& r) { return r.input == input; });
    return it == ranges.end() ? nullptr : &*it;
}

std::string inputNames(const Graph& graph) {
    std::string names;
    for (ValueId id : graph.inputs()) names += (names.empty() ? "" : ", ") + graph.value(id).name;
    return names;
}

Status checkGiven(const Graph& graph, const std::vector<InputShapeRange>& given, const std::string& option) {
    for (size_t i = 0; i < given.size(); ++i) {
        const InputShapeRange& range = given[i];
        const std::string what = option + " " + range.input + "=...: ";
        const auto id = graph.findValue(range.input);
        const auto& inputs = graph.inputs();
        if (!id || std::find(inputs.begin(), inputs.end(), *id) == inputs.end())
            return invalidArgument(what + "the model has no input '" + range.input +
                                   "' (its inputs: " + inputNames(graph) + "); " + shapeUsage());
        if (findRange(given, range.input) != &range)
            return invalidArgument(what + "input '" + range.input + "' is given twice; give it once");
        if (const std::string problem = misfit(graph.value(*id), range); !problem.empty())
            return invalidArgument(what + problem + "; " + shapeUsage());
    }
    return Status::ok();
}

// The declared shape with a placeholder for each open dimension: "Nx3xHxW" ("D2" where it has no symbol).
std::string shapePattern(const TensorType& type) {
    std::string text;
    for (size_t d = 0; d < type.dims.size(); ++d) {
        const Dim& dim = type.dims[d];
        if (d > 0) text += 'x';
        if (dim.known())
            text += std::to_string(dim.size);
        else if (dim.symbol.empty())
            text.append(1, 'D').append(std::to_string(d));
        else
            text += dim.symbol;
    }
    return text.empty() ? "DIMS" : text;
}

}  // namespace

std::vector<std::string> TrtexecShapes::missing() const {
    std::vector<std::string> names;
    for (const auto& input : inputs)
        if (!input.known) names.push_back(input.input);
    return names;
}

Result<InputShapeRange> parseShapeOption(const std::string& text, const std::string& option) {
    const std::string prefix = option + " '" + text + "': ";
    const size_t eq = text.rfind('=');
    if (eq == std::string::npos) return invalidArgument(prefix + "no '=' after the input name; " + shapeUsage());
    if (eq == 0) return invalidArgument(prefix + "no input name before '='; " + shapeUsage());
    InputShapeRange range{text.substr(0, eq), {}, {}, {}};
    const std::vector<std::string> parts = split(text.substr(eq + 1), ':');
    if (parts.size() != 1 && parts.size() != 3)
        return invalidArgument(prefix + "give 1 shape or 3 (min:opt:max), not " + std::to_string(parts.size()) + "; " +
                               shapeUsage());
    std::vector<Shape> shapes;
    for (const std::string& part : parts) {
        auto dims = parseDims(part, prefix);
        if (!dims) return invalidArgument(dims.status().message() + "; " + shapeUsage());
        shapes.push_back(std::move(*dims));
    }
    range.min = shapes.front();
    range.opt = shapes[shapes.size() / 2];
    range.max = shapes.back();
    if (const std::string problem = rangeProblem(range); !problem.empty())
        return invalidArgument(prefix + "input '" + range.input + "': " + problem + "; " + shapeUsage());
    return range;
}

Result<TrtexecShapes> trtexecShapes(const Graph& graph, const std::vector<InputShapeRange>& calibrated,
                                    const std::vector<InputShapeRange>& given, const std::string& option) {
    QL_RETURN_IF_ERROR(checkGiven(graph, given, option));
    TrtexecShapes shapes;
    for (ValueId id : graph.inputs()) {
        const Value& value = graph.value(id);
        if (!isDynamic(value.type)) continue;
        DynamicInput input{value.name, value.type.shapeString(), shapePattern(value.type), false, {}, {}};
        const InputShapeRange* seen = findRange(calibrated, value.name);
        if (const InputShapeRange* range = findRange(given, value.name)) {
            input.known = true;
            input.range = *range;
            input.source = "--shapes";
        } else if (seen && misfit(value, *seen).empty()) {
            input.known = true;
            input.range = calibratedRange(value, *seen);
            input.source = "calibration";
        }
        shapes.inputs.push_back(std::move(input));
    }
    return shapes;
}

Result<std::string> trtexecShapeFlags(const TrtexecShapes& shapes) {
    std::string min, opt, max;
    for (const auto& input : shapes.inputs) {
        if (!input.known) continue;
        QL_ASSIGN_OR_RETURN(const std::string name, trtexecInputName(input.input));
        const std::string separator = min.empty() ? "" : ",";
        min += separator + name + ":" + dimsText(input.range.min);
        opt += separator + name + ":" + dimsText(input.range.opt);
        max += separator + name + ":" + dimsText(input.range.max);
    }
    if (min.empty()) return std::string();
    return " " + shellQuote("--minShapes=" + min) + " " + shellQuote("--optShapes=" + opt) + " " +
           shellQuote("--maxShapes=" + max);
}

std::string missingShapesComment(const TrtexecShapes& shapes) {
    std::string text;
    for (const auto& input : shapes.inputs) {
        if (input.known) continue;
        text += "# Input '" + input.input + "' " + input.declared +
                " has dynamic dimensions and no shapes (none given, none in the calibration): trtexec sets them to "
                "1.\n# Give them with quantize --shapes '" +
                input.input + "=MIN:OPT:MAX' (each like " + input.pattern +
                ", a number for each open dimension) or in the export dialog, and export again.\n";
    }
    return text;
}

std::vector<std::string> missingShapesAdvice(const TrtexecShapes& shapes, const std::string& option) {
    std::vector<std::string> advice;
    for (const auto& input : shapes.inputs) {
        if (input.known) continue;
        advice.push_back("input '" + input.input + "' " + input.declared +
                         " has dynamic dimensions and no shapes (none given, none in the calibration): the trtexec "
                         "script leaves them to trtexec, which sets them to 1; give " +
                         option + " " + input.input + "=MIN:OPT:MAX, each like " + input.pattern +
                         " with a number for each open dimension");
    }
    return advice;
}

nlohmann::json trtexecShapesJson(const TrtexecShapes& shapes) {
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& input : shapes.inputs) {
        nlohmann::json entry = {{"input", input.input}, {"declared", input.declared}, {"source", input.source}};
        if (input.known) {
            entry["min"] = input.range.min;
            entry["opt"] = input.range.opt;
            entry["max"] = input.range.max;
        }
        inputs.push_back(std::move(entry));
    }
    return {{"inputs", inputs}, {"missing", shapes.missing()}};
}

}  // namespace ql
