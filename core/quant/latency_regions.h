#pragma once
// Plans for speed (`tune --objective latency`, issue 28 item 5): which INT8 regions of a plan pay on a GPU.
//
// A region is an INT8 island of the engine the plan builds (INT8 layers that hand INT8 tensors to each other; the
// reformats at its borders belong to it) or one layer of such an island. Moving a region to the fallback precision
// (FP16) changes the predicted time two ways: its layers run slower, or no slower where INT8 gains nothing
// (depthwise, channels not a multiple of 16, memory-bound layers), and the reformats at its borders go or come.
// The times come from the engine prediction and the latency model through PlanLatencyModel (core/engine/
// plan_latency.h implements it), so this file stays below core/engine.
//
// moveRegionsThatDoNotPay(): a local search on predicted times alone, no accuracy evaluated: each round makes the
// one move that shortens the plan's time most (a region to `fallback`, or a layer moved earlier back to INT8: an
// island that does not pay whole may hold layers that do), until none does. Each layer left in the fallback gets
// the reason, with its numbers, in its plan note. Moving only removes quantization, yet it can change accuracy:
// the tuner evaluates the result and keeps it within the target (tuning.h).
// assessInt8Regions(): the INT8 islands left, each with what its INT8 saves, for the notes and the report.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/quant/precision_plan.h"

namespace ql {

// A plan's predicted engine time (an estimate).
struct PlanTime {
    double totalMs = 0.0;
    double reformatMs = 0.0;
    int64_t reformats = 0;
};

// The INT8 layers of one island, each as the ONNX nodes it fuses.
using Int8Island = std::vector<std::vector<NodeId>>;

// What the speed search asks of the engine prediction. Plans given have their effective precisions decided.
class PlanLatencyModel {
public:
    virtual ~PlanLatencyModel() = default;
    virtual PlanTime time(const PrecisionPlan& plan) const = 0;
    virtual std::vector<Int8Island> int8Islands(const PrecisionPlan& plan) const = 0;
    // The GPU the times are for, as notes name it ("rtx3060-laptop").
    virtual std::string gpu() const = 0;
};

struct RegionDecision {
    std::vector<NodeId> nodes;  // the ONNX nodes of its INT8 layers
    int64_t layers = 0;
    double int8SavesMs = 0.0;     // its layers' predicted time in the fallback minus in INT8 (< 0: INT8 slower)
    double reformatCostMs = 0.0;  // the plan's reformat time with the region INT8 minus with it in the fallback
    int64_t reformats = 0;        // reformats its INT8 adds (< 0: removes)
    Precision precision = Precision::Int8;  // what it runs in: INT8, or the fallback it moved to
    std::string why;                        // "INT8 saves 0.012 ms but its 2 reformats cost 0.018 ms: ..."
    // What its INT8 gains over the fallback, in the plan's predicted time.
    double netMs() const { return int8SavesMs - reformatCostMs; }
    // INT8 makes the plan faster (a region whose INT8 gains nothing does not pay: the fallback is more accurate).
    bool pays() const;
};

// A region of `layers` layers over `nodes`, from the plan's predicted time with the region INT8 (`int8`) and with it
// in `fallback` (`other`): what its INT8 saves, what its reformats cost, and the reason in words ("why").
RegionDecision regionDecision(std::vector<NodeId> nodes, int64_t layers, const PlanTime& int8, const PlanTime& other,
                              Precision fallback);

// The tuner's policies (TensorRT's fallbacks, realized precision), applied after every change.
using ApplyPolicies = std::function<PrecisionPlan(PrecisionPlan)>;

struct SpeedMoves {
    PrecisionPlan plan;                 // policies applied
    std::vector<RegionDecision> moved;  // per layer the search left in the fallback: what its INT8 would change
    int64_t moves = 0;                  // moves made (to the fallback, or back to INT8)
    int64_t predictions = 0;            // plans predicted
};

// `plan`: effective precisions decided; only the nodes it requests INT8 ever move. `maxMoves` 0: no limit.
SpeedMoves moveRegionsThatDoNotPay(PrecisionPlan plan, const PlanLatencyModel& model, Precision fallback,
                                   const ApplyPolicies& apply, int64_t maxMoves = 0);

// Every INT8 island of `plan` (precision INT8), with what moving it whole to `fallback` would change.
std::vector<RegionDecision> assessInt8Regions(const PrecisionPlan& plan, const PlanLatencyModel& model,
                                              Precision fallback, const ApplyPolicies& apply);

// The plan note of a decision: "tune: fp16 for speed on rtx3060-laptop, INT8 saves ... (predicted, an estimate)";
// "tune: int8 pays on rtx3060-laptop, ..." for a region kept INT8 (or "int8, does not pay on ..." where the target
// or the budget kept it).
std::string regionNote(const RegionDecision& decision, const std::string& gpu);

// Notes each INT8 node of the kept regions with its region's reason (after a note it already has).
void noteKeptRegions(PrecisionPlan& plan, const std::vector<RegionDecision>& kept, const std::string& gpu);

// "0.012 ms" (four decimals below 0.01 ms).
std::string millisecondsText(double ms);

}  // namespace ql
