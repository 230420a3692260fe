#include "core/model/matrix_product_shape.h"

#include <vector>

namespace ql {

namespace {

// Dims of a value, -1 where unknown; empty when the rank is unknown.
std::vector<int64_t> dimsOf(const Graph& graph, ValueId value) {
    if (value == kNoId) return {};
    if (const Initializer* init = graph.initializerOf(value)) return init->dims;
    const TensorType& type = graph.value(value).type;
    std::vector<int64_t> out;
    if (!type.hasShape) return out;
    for (const Dim& d : type.dims) out.push_back(d.known() ? d.size : -1);
    return out;
}

}  // namespace

MatrixProductShape matrixProductShape(const Graph& graph, const Node& node) {
    if ((node.opType != "MatMul" && node.opType != "Gemm") || node.inputs.size() < 2) return {};
    const std::vector<int64_t> a = dimsOf(graph, node.inputs[0]);
    const std::vector<int64_t> b = dimsOf(graph, node.inputs[1]);
    if (node.opType == "Gemm") {
        if (a.size() != 2 || b.size() != 2) return {};
        return {node.intAttribute("transA", 0) ? a[1] : a[0], node.intAttribute("transB", 0) ? b[0] : b[1]};
    }
    const int64_t n = b.size() >= 2 ? b.back() : (b.size() == 1 ? 1 : -1);
    if (a.empty()) return {-1, n};
    if (b.size() > 2) return {a.size() >= 2 ? a[a.size() - 2] : 1, n};
    int64_t m = 1;
    for (size_t i = 0; i + 1 < a.size(); ++i) m = (m < 0 || a[i] < 0) ? -1 : m * a[i];
    return {m, n};
}

}  // namespace ql
