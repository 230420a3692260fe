#pragma once
// What `tune` moves (tuning.h): units, each an INT8 layer that quantizes an input (a consumer of placeQdq's edges)
// with the INT8 nodes TensorRT fuses after it, and the activation tensors it quantizes; in the main graph and in the
// planned bodies of If/Loop/Scan nodes (PrecisionPlan::bodies), whose units are named by path.
#include <string>
#include <vector>

#include "core/model/body_graphs.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct TuneUnit {
    BodyPath body;                       // empty: a layer of the main graph; else the body it is in
    NodeId layer = kNoId;                // the layer that quantizes its inputs (in its body's graph, inside a body)
    std::vector<NodeId> nodes;           // the layer and the INT8 nodes fused after it
    std::vector<std::string> nodeNames;  // theirs, after the body's path inside a body
    std::vector<ValueId> tensors;        // the activation tensors it quantizes
    std::string name;  // the layer's name, after its body's path inside a body ("If_0/then_branch/conv")
    std::string op;
    double outputSqnrDb = 0.0;  // outputs vs FP32 with this unit alone INT8
    int64_t macs = 0;
};

// The units of `plan` over `graph` (the main graph, or a body's with the body's calibration).
Result<std::vector<TuneUnit>> findUnits(const Graph& graph, const PrecisionPlan& plan,
                                        const CalibrationResult& calibration);
// The units of the planned bodies of `plan` (nested ones too), in body order. `bodies`: the bodies of `graph`
// (buildBodyGraphs with OuterInitializers::Copied: the body's weights constants, as TensorRT sees them).
Result<std::vector<TuneUnit>> findBodyUnits(const Graph& graph, const std::vector<BodyGraph>& bodies,
                                            const PrecisionPlan& plan, const CalibrationResult& calibration);

// The units of the default placement whose layer `plan` requests out of INT8 (planKeptOutLayers, tuning.h).
Result<std::vector<TuneUnit>> planKeptOutUnits(const Graph& graph, const PrecisionPlan& plan,
                                               const CalibrationResult& calibration);

// The plan a unit's nodes are in: `plan` itself, or its body's plan (null when the body has none).
const PrecisionPlan* unitPlan(const PrecisionPlan& plan, const TuneUnit& unit);
PrecisionPlan* unitPlan(PrecisionPlan& plan, const TuneUnit& unit);
// The effective precision of the unit's layer in `plan`: FP32 where its body has no plan (such a body runs float).
Precision unitEffective(const PrecisionPlan& plan, const TuneUnit& unit);
// Whether a layer out of INT8 was taken out by TensorRT's rules (TuneOptions::policies), not moved: `plan` still
// requests it INT8 (an Add whose producer the tune moved to FP16 runs FP16 under strong typing).
bool outOfInt8ByRules(const PrecisionPlan& plan, NodeId layer);
bool outOfInt8ByRules(const PrecisionPlan& plan, const TuneUnit& unit);

// `plan` with `units` (their layer and the nodes fused after it) back in INT8, as the default placement has them.
PrecisionPlan released(PrecisionPlan plan, const std::vector<TuneUnit>& units);

}  // namespace ql
