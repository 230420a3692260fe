#pragma once
// The output rows (M) and columns (N) of a MatMul or Gemm, from the shapes the model declares or shape inference
// found: what decides whether it is a matrix-vector product (M = 1 or N = 1), which NVIDIA's Model Optimizer leaves
// out of INT8 and trt-int8-gemv reports.
#include <cstdint>

#include "core/model/graph.h"

namespace ql {

struct MatrixProductShape {
    int64_t rows = -1;     // M; -1 where unknown
    int64_t columns = -1;  // N; -1 where unknown
    bool matrixVector() const { return rows == 1 || columns == 1; }
};

// A MatMul with a 2-D (or 1-D) weight is one GEMM whose rows are all of A's leading dims; a batched MatMul (B of
// rank > 2) is one GEMM per batch, with A's second-to-last dim as rows. Other nodes: both unknown.
MatrixProductShape matrixProductShape(const Graph& graph, const Node& node);

}  // namespace ql
