#pragma once
// What the first model output is, which decides the metrics that describe its error. Top-1 agreement only means
// something for a class vector ([N, C] scores, one class per sample); over a detector's boxes-and-scores tensor
// or a regression map, argmax picks an arbitrary element and a 3 % "agreement" looks like a disaster while the
// values agree: those outputs are described by SQNR, cosine and the largest error (per channel group for a
// detector, output_groups.h).
#include <vector>

#include "core/model/graph.h"
#include "core/quant/output_groups.h"

namespace ql {

enum class OutputKind {
    ClassVector,  // [N, C] (or [N, C, 1, 1]) scores, C >= 2, no box/score channel groups: agreement and accuracy
    Detection,    // a detector's boxes and scores in one tensor (detectDetectorOutputGroups): per-group error
    Values,       // anything else (maps, embeddings, unknown shapes): SQNR, cosine, max error
};
const char* outputKindName(OutputKind kind);  // "class vector", "detection", "values"

// The kind of `graph`'s first output from its inferred shape and, for detectors, its channel groups.
OutputKind firstOutputKind(const Graph& graph);
// The same for a shape (dims, -1 unknown) and whether channel groups were found.
OutputKind outputKindOf(const std::vector<int64_t>& dims, bool hasChannelGroups);

}  // namespace ql
