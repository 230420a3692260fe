#pragma once
// Bounds that hold for any input, known without data: an interval [lo, hi] for every value of a graph, from the
// ops that bound their output by construction (Sigmoid [0, 1], Softmax [0, 1], Tanh [-1, 1], HardSigmoid, Clip,
// comparisons and Cast from bool [0, 1], small integer types, constants) carried through data movement (Reshape,
// Transpose, Slice, Gather, Concat as the union, MaxPool, Resize nearest/linear, Pad with its constant, ...),
// through Q -> DQ pairs (the bound of the tensor they quantize), and through interval arithmetic (Add, Sub, Mul,
// Div, Min, Max, Relu, monotone functions).
//
// What it is for: a bounded tensor under a scale set for something else (a Concat shared with pixel boxes) keeps
// few INT8 codes, and that is known before any calibration (trt-bounded-range-codes). An end is infinite where
// nothing bounds it (Relu: [0, inf)); ops it does not know, and other domains than ONNX's, are unbounded.
#include <limits>
#include <optional>
#include <vector>

#include "core/model/graph.h"

namespace ql {

struct StaticRange {
    static constexpr double kInf = std::numeric_limits<double>::infinity();
    double lo = -kInf;
    double hi = kInf;
    // The node whose op sets the bound (a Sigmoid, a Clip, a Cast from bool), followed through data movement;
    // kNoId for a constant, a graph input of a small integer type, or a union of bounds set by different nodes.
    NodeId bounder = kNoId;
    // Computed from constants alone (no graph input reaches it): a weight, a class token, a folded expression.
    bool constant = false;

    bool bounded() const;  // both ends finite
};

class StaticRanges {
public:
    // One pass over the nodes (they are in topological order); constants are read only where an op needs their
    // values, and not at all beyond kMaxConstantElements (an embedding table is no bound worth reading).
    explicit StaticRanges(const Graph& graph);

    // The bound of `value`: (-inf, inf) when nothing bounds it or the value is absent (kNoId).
    const StaticRange& of(ValueId value) const;
    // The bound when both ends are finite, else nullopt.
    std::optional<StaticRange> bounded(ValueId value) const;

    static constexpr int64_t kMaxConstantElements = int64_t{1} << 20;

private:
    void compute(const Node& node);
    std::optional<double> constantScalar(ValueId value) const;

    const Graph& mGraph;
    mutable std::vector<StaticRange> mRanges;  // by ValueId
    mutable std::vector<bool> mConstantRead;   // a constant's range is read on first use
};

}  // namespace ql
