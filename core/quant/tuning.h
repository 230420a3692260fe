#pragma once
// Accuracy-targeted mixed precision (`quantlens-cli tune`, Quantize > Tune... in the window).
//
// 1. Units: every INT8 layer of the start plan that quantizes an input (the consumers of placeQdq's edges),
//    with the INT8 nodes TensorRT fuses after it (its activation, a folded BatchNormalization); and the
//    activation tensors those layers quantize (tuning_units.h). The planned bodies of If/Loop/Scan nodes have units
//    too, named by path; they fall back and come back like the main graph's, and keep their calibration methods
//    (a method is tried on the main graph's tensors only).
// 2. Sensitivity, measured on the model's outputs (not the layer's own SQNR): each unit alone in INT8, and each
//    tensor alone quantized, everything else FP32, on the tuning subset (tuning_evaluator.h).
// 3. Greedy, least robust unit first: the cheaper remedy that keeps INT8 first (another calibration method for
//    the unit's input tensor, when that method alone brings the outputs at least 1 dB closer to FP32), then
//    the unit in the fallback precision. A change is kept when the target's score does not get worse. When
//    the target holds on the subset it is confirmed on all samples (which the tuner uses from then on if not).
// 4. Give back: the units that fell back return to INT8, most robust first, while the target still holds on
//    all samples.
// Budget: trials (plan evaluations) and seconds; when it runs out the best plan so far is returned, met=false.
//
// Objective latency (`tune --objective latency`, issue 28 item 5): among plans that meet the target, the one with
// the lowest predicted engine time on a GPU (TuneOptions::latency), INT8 only where it pays. It starts from the start
// plan with the detector heads the default placement kept in float for accuracy INT8 (startDetectorHeadsInInt8), so
// the CLI and the window start alike from the same plan (the engine prediction does not model what runs inside
// bodies: their layers move for accuracy only, and the all-FP16 plan runs them float):
// a. the all-FP16 plan is evaluated, a point to compare with;
// b. the regions where INT8 does not pay move to the fallback (latency_regions.h: each INT8 island of the
//    predicted engine, or one layer of it, INT8 against the fallback with the reformats at its borders), decided on
//    predicted times alone, then evaluated together: kept when the target holds (or the score is no worse);
// c. the accuracy steps 1-4 from that plan, giving back only units whose INT8 does not make the plan slower;
// d. once the target holds: the regions pass again (the fallbacks may have left islands that no longer pay), kept
//    if the target still holds; the all-FP16 plan wins if it is predicted no slower and holds.
// Each region's decision, with its numbers, is in the notes of its nodes and in TuneReport::latency. With a latency
// model and the accuracy objective, every plan tried still gets its predicted time.
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/data_source.h"
#include "core/quant/calibration.h"
#include "core/quant/latency_regions.h"
#include "core/quant/precision_plan.h"
#include "core/quant/tuning_target.h"
#include "core/quant/tuning_units.h"

namespace ql {

// The plan a tune returns notes why it moved a layer (PrecisionPlan::placementNote: a fallback's sensitivity, a
// tensor's method), so the reason travels with the plan file, the project and the export summary. The notes start
// with this, which tells them from the default placement's.
inline constexpr std::string_view kTuneNotePrefix = "tune: ";
inline bool isTuneNote(std::string_view note) {
    return note.starts_with(kTuneNotePrefix);
}

enum class TuneObjective { Accuracy, Latency };
const char* tuneObjectiveName(TuneObjective objective);  // "accuracy", "latency"

struct TuneOptions {
    TuneTarget target;
    TuneObjective objective = TuneObjective::Accuracy;
    // The predicted engine time of plans (core/engine/plan_latency.h): required by the latency objective; with the
    // accuracy objective, when given, each plan tried is timed too. Must outlive the tune.
    const PlanLatencyModel* latency = nullptr;
    Precision fallback = Precision::Fp16;
    int64_t maxTrials = 0;      // plan evaluations; 0: no limit
    double maxSeconds = 0.0;    // 0: no limit
    int64_t maxSamples = 0;     // 0: all samples of the data
    int64_t batchSize = 8;      // when the model's batch axis is not fixed
    int64_t subsetSamples = 0;  // the tuning subset; 0: a quarter of the samples, at least 64 (all, when fewer)
    int threads = 1;
    std::vector<int64_t> labels;  // one class per sample (accuracy-drop)
    OutputMetricFn metric;        // metric, metric-drop
    // Applied to the plan after every change (TensorRT's fallbacks: TrtPolicies::apply, bodies included), so
    // effective precisions hold; none: effective = requested.
    std::function<void(const Graph&, PrecisionPlan&)> policies;
    // The layers the start plan keeps out of INT8 where the default placement runs them INT8 (planKeptOut: a
    // user's FP16 or FP32 choices) stay as they are; false: they start INT8 (as the default placement has them)
    // and are tuned like the rest.
    bool keepPlanKeptOut = true;
};

struct TensorSensitivity {
    ValueId tensor = kNoId;
    CalibrationMethod method = CalibrationMethod::Entropy;  // of the amax measured
    float amax = 0.0f;
    double outputSqnrDb = 0.0;  // outputs vs FP32 with this tensor alone quantized
};

struct TuneStep {
    // Speed: the regions where INT8 does not pay, moved to the fallback together; AllFp16: every layer FP16.
    enum class Action { Baseline, Method, Fallback, GiveBack, Confirm, Speed, AllFp16 };
    Action action = Action::Baseline;
    NodeId layer = kNoId;   // in its body's graph, inside a body
    BodyPath body;          // empty: the main graph
    std::string layerName;  // with its body's path inside a body (TuneUnit::name)
    std::string tensor;
    CalibrationMethod method = CalibrationMethod::Entropy;  // Method: the one tried
    Precision precision = Precision::Int8;                  // Fallback / GiveBack: the layer's new precision
    double score = 0.0;                                     // TuneTarget score after the change
    bool kept = false;
    int64_t samples = 0;                // the samples the score comes from
    std::string why;                    // e.g. "mse alone: 41.2 dB at the outputs, entropy 18.5 dB"
    std::optional<double> predictedMs;  // the plan's predicted engine time, with a latency model
};
// "baseline", "method", "fallback", "give-back", "confirm", "speed", "all-fp16"
const char* tuneActionName(TuneStep::Action action);

struct TuneProgress {
    std::string phase;  // "reference", "sensitivity", "tuning", "giving back"
    int64_t done = 0, total = 0;
    std::optional<double> value;  // the target's current value (e.g. the accuracy drop)
    std::string step;             // what was just tried
};
using TuneProgressFn = std::function<void(const TuneProgress&)>;

// Predicted times (estimates) of a tune with a latency model.
struct TuneLatency {
    std::string gpu;
    double startMs = 0.0;                 // the start plan
    double fp16Ms = 0.0;                  // every layer FP16
    double finalMs = 0.0;                 // the plan returned
    std::optional<double> fp16Score;      // the all-FP16 plan's score on all samples (latency objective)
    std::vector<RegionDecision> regions;  // latency objective: moved for speed, in order, then the INT8 islands left
    int64_t predictions = 0;              // plans the regions search predicted
};

struct TuneReport {
    TuneTarget target;
    TuneObjective objective = TuneObjective::Accuracy;
    bool met = false;
    PrecisionPlan plan;                // requested precisions and per-tensor methods; effective ones applied
    std::optional<double> fp32Metric;  // metric targets: the user's metric of the FP32 outputs (all samples)
    double startScore = 0.0;           // on all samples
    double finalScore = 0.0;           // on all samples
    std::vector<TuneStep> steps;
    std::vector<TuneUnit> units;             // least robust first
    std::vector<TensorSensitivity> tensors;  // least robust first
    std::vector<NodeId> keptOut;             // units INT8 in the start plan and not at the end
    std::vector<TuneUnit> keptOutInBodies;   // the same inside bodies
    int64_t startUnits = 0;                  // units of the start plan, bodies' included
    // Kept out of INT8 by the start plan itself and left so (TuneOptions::keepPlanKeptOut): not units, but layers
    // out of INT8 all the same; "N of M layers kept out" counts them with keptOut.
    std::vector<NodeId> planKeptOut;
    int64_t int8Macs = 0, totalMacs = 0;
    int64_t trials = 0;
    double seconds = 0.0;
    double sensitivityPasses = 0.0;  // graph passes the ranking cost per batch (node runs / graph nodes)
    int64_t samples = 0, subsetSamples = 0;
    std::optional<TuneLatency> latency;  // with a latency model
};

// `start`: the requested plan to tune (the default placement, or a user's plan).
Result<TuneReport> tune(const Graph& graph, const PrecisionPlan& start, const CalibrationResult& calibration,
                        DataSource& data, const TuneOptions& options, const TuneProgressFn& progress = {},
                        std::stop_token stop = {});

// The layers `plan` requests out of INT8 (FP16, FP32) where the default placement (default_placement.h) runs them
// INT8 and quantizes their inputs, in graph order: a user's choices, which a tune leaves alone unless told
// (TuneOptions::keepPlanKeptOut).
Result<std::vector<NodeId>> planKeptOutLayers(const Graph& graph, const PrecisionPlan& plan,
                                              const CalibrationResult& calibration);

// The INT8 share of the model's MACs (node costs) under a plan's effective precisions, with the layers of `bodies`
// (the graph's bodies, body_graphs.h) under their body plans: each body counted once (both branches of an If, a
// Loop's body once, not per iteration).
std::pair<int64_t, int64_t> int8Macs(const Graph& graph, const PrecisionPlan& plan,
                                     const std::vector<BodyGraph>& bodies = {});

}  // namespace ql
