#include "core/quant/output_kind.h"

namespace ql {

const char* outputKindName(OutputKind kind) {
    return kind == OutputKind::ClassScores ? "class_scores" : "values";
}

OutputKind firstOutputKind(const Graph& graph) {
    if (graph.outputs().empty()) return OutputKind::Values;
    const TensorType& type = graph.value(graph.outputs()[0]).type;
    const bool floating = type.dtype == DataType::Float || type.dtype == DataType::Float16 ||
                          type.dtype == DataType::BFloat16 || type.dtype == DataType::Double;
    if (!floating || !type.hasShape || type.dims.size() != 2) return OutputKind::Values;
    const Dim& classes = type.dims[1];
    return classes.known() && classes.size >= 2 ? OutputKind::ClassScores : OutputKind::Values;
}

}  // namespace ql
