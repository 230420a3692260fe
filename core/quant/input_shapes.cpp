#include "core/quant/input_shapes.h"

#include <algorithm>

namespace ql {

void InputShapeRecorder::add(const NamedTensors& inputs) {
    for (const auto& [name, tensor] : inputs) {
        auto it = std::find_if(mSeen.begin(), mSeen.end(), [&](const Seen& s) { return s.input == name; });
        if (it == mSeen.end()) it = mSeen.insert(mSeen.end(), Seen{name, {}});
        ++it->counts[tensor.shape()];
    }
}

std::vector<InputShapeRange> InputShapeRecorder::ranges() const {
    std::vector<InputShapeRange> ranges;
    for (const Seen& seen : mSeen) {
        if (seen.counts.empty()) continue;
        // The most frequent shape; on a tie the larger (std::map orders shapes, so the last one met wins).
        const Shape* opt = nullptr;
        int64_t most = 0;
        for (const auto& [shape, count] : seen.counts)
            if (count >= most) opt = &shape, most = count;
        InputShapeRange range{seen.input, *opt, *opt, *opt};
        for (const auto& [shape, count] : seen.counts) {
            if (shape.size() != range.opt.size()) continue;  // a rank-less input fed two ranks: the profile is opt's
            for (size_t d = 0; d < shape.size(); ++d) {
                range.min[d] = std::min(range.min[d], shape[d]);
                range.max[d] = std::max(range.max[d], shape[d]);
            }
        }
        ranges.push_back(std::move(range));
    }
    return ranges;
}

std::string dimsText(const Shape& dims) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i > 0) text += 'x';
        text += std::to_string(dims[i]);
    }
    return text;
}

std::string rangeProblem(const InputShapeRange& range) {
    if (range.min.size() != range.opt.size() || range.opt.size() != range.max.size())
        return "min, opt and max must have the same number of dimensions";
    for (size_t d = 0; d < range.opt.size(); ++d) {
        if (range.min[d] < 0) return "dimension " + std::to_string(d) + " is negative";
        if (range.min[d] > range.opt[d] || range.opt[d] > range.max[d])
            return "dimension " + std::to_string(d) + " must grow from min to opt to max (" +
                   std::to_string(range.min[d]) + ", " + std::to_string(range.opt[d]) + ", " +
                   std::to_string(range.max[d]) + ")";
    }
    return {};
}

nlohmann::json inputShapesToJson(const std::vector<InputShapeRange>& shapes) {
    nlohmann::json json = nlohmann::json::object();
    for (const auto& range : shapes) json[range.input] = {{"min", range.min}, {"opt", range.opt}, {"max", range.max}};
    return json;
}

namespace {

Result<Shape> dimsFromJson(const nlohmann::json& entry, const char* key, const std::string& where) {
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_array())
        return invalidArgument(where + ": \"" + key + "\" is missing or not a list of dimensions");
    Shape dims;
    for (const auto& d : *it) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0)
            return invalidArgument(where + ": \"" + key + "\" holds something other than a non-negative integer");
        dims.push_back(d.get<int64_t>());
    }
    return dims;
}

}  // namespace

Result<std::vector<InputShapeRange>> inputShapesFromJson(const Graph& graph, const nlohmann::json& file,
                                                         const std::string& label) {
    std::vector<InputShapeRange> shapes;
    const auto member = file.find("input_shapes");
    if (member == file.end()) return shapes;
    if (!member->is_object()) return invalidArgument(label + ": \"input_shapes\" is not an object");
    for (const auto& [name, entry] : member->items()) {
        const auto value = graph.findValue(name);
        if (!value || !graph.value(*value).isGraphInput)
            return notFound(label + ": \"input_shapes\" names '" + name + "', which is not an input of the model");
        const std::string where = label + ": input_shapes of '" + name + "'";
        if (!entry.is_object()) return invalidArgument(where + " is not an object");
        InputShapeRange range{name, {}, {}, {}};
        QL_ASSIGN_OR_RETURN(range.min, dimsFromJson(entry, "min", where));
        QL_ASSIGN_OR_RETURN(range.opt, dimsFromJson(entry, "opt", where));
        QL_ASSIGN_OR_RETURN(range.max, dimsFromJson(entry, "max", where));
        if (const std::string problem = rangeProblem(range); !problem.empty())
            return invalidArgument(where + ": " + problem);
        shapes.push_back(std::move(range));
    }
    return shapes;
}

}  // namespace ql
