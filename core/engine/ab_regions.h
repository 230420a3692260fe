#pragma once
// The regions of a plan whose INT8 is contested (issue 28, item 5): where the latency model predicts that running
// them INT8 instead of FP16 barely pays or loses, so a build on the user's GPU should decide. `quantize
// --ab-scripts` writes a build of the plan with each such region in FP16 beside the plan's own (ab_scripts.h).
//
// Candidates: every INT8 island (INT8 layers joined by the tensors between them) when the plan has more than one,
// every INT8 layer that gains little on its own (its INT8 time against its time in the all-FP16 engine: under 25%
// saved, as depthwise, small-channel, memory-bound and launch-bound layers do), and every run of such layers joined
// by the tensors between them (flipping one of a run alone only moves the reformats to its neighbours). Each is
// flipped to FP16 in the plan, the plan realized again and the engine predicted: what INT8 saves is the flipped
// engine's total minus the plan's, reformats included. Contested: it saves less than 10% of the region's FP16 time
// (at least 1 us), or loses. Of overlapping contested regions only the one INT8 helps least is kept.
#include <functional>
#include <string>
#include <vector>

#include "core/engine/engine_prediction.h"
#include "core/engine/latency_model.h"

namespace ql {

struct AbRegion {
    std::vector<NodeId> nodes;  // flipped to FP16 in the region's variant
    std::string name;           // the region's first layer, as TensorRT would name it
    int layers = 0;             // predicted INT8 layers in it
    double int8GainMs = 0.0;    // predicted: the engine with the region FP16 minus the plan's (< 0: INT8 loses)
    double fp16Ms = 0.0;        // predicted: the region's layers in the all-FP16 engine
    std::string reason;         // why it is contested, with the numbers
};

// The effective plan for a requested one (effectivePlan with the target and calibration of the export).
using PlanRealizer = std::function<PrecisionPlan(PrecisionPlan requested)>;

struct ContestedRegions {
    std::vector<AbRegion> regions;  // contested, the least INT8 gain first, none overlapping, at most `limit`
    int candidates = 0;             // regions weighed
    int leftOut = 0;                // contested beyond `limit`
    double planMs = 0.0;            // the plan's predicted total
    double fp16Ms = 0.0;            // the all-FP16 engine's
};

// `plan`: the effective plan; `realize` turns a requested plan into an effective one for the same target.
ContestedRegions contestedRegions(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target,
                                  const GpuProfile& profile, const PlanRealizer& realize, size_t limit);

}  // namespace ql
