#include "core/quant/output_kind.h"

namespace ql {

const char* outputKindName(OutputKind kind) {
    switch (kind) {
        case OutputKind::ClassVector:
            return "class vector";
        case OutputKind::Detection:
            return "detection";
        case OutputKind::Values:
            break;
    }
    return "values";
}

OutputKind outputKindOf(const std::vector<int64_t>& dims, bool hasChannelGroups) {
    if (hasChannelGroups) return OutputKind::Detection;
    // [N, C] or [N, C, 1, 1]: one score per class and sample.
    const bool trailingOnes = dims.size() == 4 && dims[2] == 1 && dims[3] == 1;
    if (dims.size() != 2 && !trailingOnes) return OutputKind::Values;
    return dims[1] >= 2 ? OutputKind::ClassVector : OutputKind::Values;
}

OutputKind firstOutputKind(const Graph& graph) {
    if (graph.outputs().empty()) return OutputKind::Values;
    const TensorType& type = graph.value(graph.outputs().front()).type;
    if (!type.hasShape) return OutputKind::Values;
    std::vector<int64_t> dims;
    for (const Dim& d : type.dims) dims.push_back(d.size);
    return outputKindOf(dims, !detectDetectorOutputGroups(graph).empty());
}

}  // namespace ql
