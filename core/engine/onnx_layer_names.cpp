#include "core/engine/onnx_layer_names.h"

namespace ql {

namespace {

constexpr std::string_view kOnnxLayer = "[ONNX Layer: ";
constexpr std::string_view kPointwise = "PWN(";

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// Splits at `separator` where no bracket or parenthesis is open, so "PWN(a, b)" stays one part.
std::vector<std::string_view> splitOutside(std::string_view text, std::string_view separator) {
    std::vector<std::string_view> parts;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[') ++depth;
        if ((c == ')' || c == ']') && depth > 0) --depth;
        if (depth == 0 && text.substr(i, separator.size()) == separator) {
            parts.push_back(trim(text.substr(start, i - start)));
            start = i + separator.size();
            i = start - 1;
        }
    }
    parts.push_back(trim(text.substr(start)));
    return parts;
}

// "[CONVOLUTION]-[aten_ops.convolution.default]-[/features/0/convolution]" -> "/features/0/convolution".
std::optional<std::string_view> torchTensorRtName(std::string_view part) {
    if (!part.starts_with("[") || !part.ends_with("]")) return std::nullopt;
    const size_t open = part.rfind("-[");
    if (open == std::string_view::npos) return std::nullopt;
    return part.substr(open + 2, part.size() - open - 3);
}

void addPart(std::string_view part, std::vector<std::string>& names) {
    part = trim(part);
    if (part.empty()) return;
    if (part.starts_with(kPointwise) && part.ends_with(")")) {
        const std::string_view inner = part.substr(kPointwise.size(), part.size() - kPointwise.size() - 1);
        for (std::string_view p : splitOutside(inner, ",")) addPart(p, names);
        return;
    }
    if (const auto name = torchTensorRtName(part)) {
        names.emplace_back(*name);
        return;
    }
    names.emplace_back(part);
}

}  // namespace

std::vector<std::string> metadataOnnxNames(std::string_view metadata) {
    std::vector<std::string> names;
    size_t pos = metadata.find(kOnnxLayer);
    while (pos != std::string_view::npos) {
        const size_t start = pos + kOnnxLayer.size();
        const size_t next = metadata.find(kOnnxLayer, start);
        // The name ends at the last ']' before the next entry, so names holding ']' survive.
        const std::string_view entry = metadata.substr(start, next == std::string_view::npos ? next : next - start);
        const size_t close = entry.rfind(']');
        if (close != std::string_view::npos) names.emplace_back(entry.substr(0, close));
        pos = next;
    }
    return names;
}

std::vector<std::string> fusedNameParts(std::string_view layerName) {
    std::vector<std::string> names;
    for (std::string_view part : splitOutside(layerName, " + ")) addPart(part, names);
    return names;
}

std::optional<std::string> reformatTarget(std::string_view layerName) {
    constexpr std::string_view kPrefix = "Reformatting CopyNode for ";
    if (!layerName.starts_with(kPrefix)) return std::nullopt;
    const size_t to = layerName.find(" to ");
    if (to == std::string_view::npos) return std::nullopt;
    return std::string(layerName.substr(to + 4));
}

}  // namespace ql
