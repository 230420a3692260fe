#pragma once
// Channel groups of the first model output, compared apart. A YOLO-style detector writes pixel boxes (0-640) and
// sigmoid scores (0-1) into one tensor; one SQNR over both says almost nothing about the scores, which are what
// INT8 breaks first (one shared scale rounds them to 0: ultralytics#1695). `compare` reports each group's error.
#include <string>
#include <string_view>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"
#include "core/quant/error_metrics.h"

namespace ql {

struct OutputChannelGroup {
    std::string name;            // "boxes", "scores", or the user's
    int64_t axis = 1;            // of the first output; negative counts from the end
    int64_t begin = 0, end = 0;  // channels [begin, end)
};

struct OutputGroupError {
    OutputChannelGroup group;
    ErrorMetrics metrics;
};

// The split of a detector's first output when it is a Concat (maybe behind a Transpose or Reshape that keeps the
// axis) of box coordinates and Sigmoid scores: contiguous runs of inputs that reach a Sigmoid through data movement
// are "scores", the others "boxes" (numbered when there are several runs). Empty when the output is no such Concat
// or the channel counts are not known.
std::vector<OutputChannelGroup> detectDetectorOutputGroups(const Graph& graph);

// "boxes=0:4,scores=4:84" on `axis`: names and channel ranges, each non-empty and in order.
Result<std::vector<OutputChannelGroup>> parseOutputGroups(std::string_view spec, int64_t axis);

// Checks the groups against the first output's inferred shape: the axis exists and the channels fit (where known).
Status checkOutputGroups(const Graph& graph, const std::vector<OutputChannelGroup>& groups);

// Accumulates each group's error over batches of the first output.
class OutputGroupAccumulator {
public:
    explicit OutputGroupAccumulator(std::vector<OutputChannelGroup> groups);
    // Batches whose shape does not hold a group's channels on its axis are skipped for that group.
    void add(const Tensor& fp32, const Tensor& quantized);
    std::vector<OutputGroupError> result() const;

private:
    std::vector<OutputChannelGroup> mGroups;
    std::vector<ErrorAccumulator> mErrors;
};

}  // namespace ql
