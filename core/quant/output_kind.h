#pragma once
// What the model's first output holds, so the comparison reports the metrics that mean something for it. Top-1
// agreement and accuracy compare the argmax of each row: right for class scores, meaningless for a detector's boxes,
// a mask or an embedding, where "3% agreement" would look like a disaster on outputs that match to 30 dB. Those get
// SQNR, cosine similarity and the largest error instead.
#include "core/model/graph.h"

namespace ql {

enum class OutputKind {
    ClassScores,  // [N, C] with C >= 2: one score per class per sample
    Values,       // anything else: detections, masks, features, regressions
};

const char* outputKindName(OutputKind kind);  // "class_scores", "values"
// The kind of the first graph output from its inferred shape; Values when there is no output or no shape.
OutputKind firstOutputKind(const Graph& graph);

}  // namespace ql
