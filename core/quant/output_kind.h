#pragma once
// What a model output is, which decides the metrics that describe its error. Top-1 agreement only means something
// for a class vector ([N, C] scores, one class per sample); over a detector's boxes-and-scores tensor, a regression
// map or an embedding, argmax picks an arbitrary element and a 37 % "agreement" looks like a disaster while the
// values agree (cosine 0.985): those outputs are described by SQNR, cosine and the largest error (per channel group
// for a detector, output_groups.h). Every output gets SQNR, cosine and max error; class vectors get top-1 too.
//
// The rule for an [N, C] (or [N, C, 1, 1]) output, C >= 2, without detector channel groups. By shape alone an
// embedding and class logits look the same; what tells them apart is how the vector is made and what its rows hold:
//   - a Softmax or LogSoftmax makes it (through reshapes and casts): class scores, whatever else holds;
//   - an embedding when the graph L2-normalizes it (LpNormalization, or a Div/Mul by a norm computed with ReduceL2,
//     ReduceSumSquare or Sqrt), when it ends in a BatchNormalization (the "BN-neck" of face-recognition and
//     re-identification embeddings; classifiers end in a Gemm, MatMul, Conv or Softmax), when its name says so
//     ("embed", "feature", "descriptor"), or when every FP32 row has unit L2 norm (within 2 %) and some values are
//     negative (a normalization the graph does not show in a form recognised above; probabilities are non-negative);
//   - class scores otherwise (raw logits).
// An unnormalized embedding with none of these signs reads as class scores: its SQNR and cosine are still reported.
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/tensor.h"
#include "core/model/graph.h"
#include "core/quant/output_groups.h"

namespace ql {

enum class OutputKind {
    ClassVector,  // [N, C] (or [N, C, 1, 1]) scores, C >= 2, not an embedding: agreement and accuracy
    Detection,    // a detector's boxes and scores in one tensor (detectDetectorOutputGroups): per-group error
    Values,       // anything else (maps, embeddings, unknown shapes): SQNR, cosine, max error
};
const char* outputKindName(OutputKind kind);  // "class vector", "detection", "values"

// What an output's FP32 values say about it, batch after batch (rows along axis 0, one per sample).
class OutputRowProfile {
public:
    void add(const Tensor& fp32);
    // Every row has unit L2 norm (within 2 %) and some value is negative: an L2-normalized embedding.
    bool unitNormRows() const { return mRows > 0 && mUnitRows == mRows && mNegative; }

private:
    int64_t mRows = 0, mUnitRows = 0;
    bool mNegative = false;
};

struct OutputKindDecision {
    OutputKind kind = OutputKind::Values;
    std::string why;  // what decided an [N, C] output, e.g. "L2-normalized by /Div"; empty for the shape rule
};

// The kind of graph output `output`. `hasChannelGroups`: detector channel groups apply to it; `rows`: its FP32
// values when they were seen (null: from the graph alone).
OutputKindDecision outputKind(const Graph& graph, ValueId output, bool hasChannelGroups,
                              const OutputRowProfile* rows = nullptr);
// The kind of `graph`'s first output from the graph alone (channel groups detected).
OutputKind firstOutputKind(const Graph& graph);
// The shape rule alone: dims (-1 unknown) and whether channel groups were found.
OutputKind outputKindOf(const std::vector<int64_t>& dims, bool hasChannelGroups);
// Why a top-1 class means nothing for `graph`'s first output (it is not a class vector: a detector's boxes and
// scores, a map, an embedding), e.g. "the first output 'scores' [1,4420,2] holds values (8840 per sample)"; empty
// when it is a class vector, or when its shape is not known (the data decide then).
std::string whyNoTopClass(const Graph& graph);

}  // namespace ql
