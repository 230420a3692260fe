#include "core/quant/tuning.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/quant/body_plans.h"
#include "core/quant/default_placement.h"
#include "core/quant/qdq_placement.h"
#include "core/quant/tuning_evaluator.h"

namespace ql {
namespace {

// A method is worth a trial when, alone, it brings the outputs at least this much closer to FP32.
constexpr double kMethodGainDb = 1.0;

std::string decibels(double db) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f dB", db);
    return text;
}

void addMacs(const Graph& graph, const PrecisionPlan* plan, const std::vector<BodyGraph>& bodies, int64_t& int8,
             int64_t& total) {
    for (const Node& node : graph.nodes()) {
        total += node.cost.macs;
        if (plan && plan->effective(node.id) == Precision::Int8) int8 += node.cost.macs;
    }
    for (const BodyGraph& body : bodies)
        addMacs(body.body.graph, plan ? plan->body(body.path.back().owner, body.path.back().attribute) : nullptr,
                body.bodies, int8, total);
}

// The step's layer: the unit's.
void setLayer(TuneStep& step, const TuneUnit& unit) {
    step.layer = unit.layer;
    step.body = unit.body;
    step.layerName = unit.name;
}

class Tuner {
public:
    Tuner(const Graph& graph, const CalibrationResult& calibration, const TuneOptions& options,
          const TuneProgressFn& progress, std::stop_token stop)
        : mGraph(graph), mCalibration(calibration), mOptions(options), mProgress(progress), mStop(std::move(stop)) {}

    Result<TuneReport> run(const PrecisionPlan& start, DataSource& data);

private:
    Status prepare(DataSource& data);
    // The FP32 side of scores on the first `batches` batches.
    Result<ReferenceOutputs> reference(size_t batches) const;
    Result<double> score(const PrecisionPlan& plan, size_t batches);
    Result<double> scoreOf(const NamedTensors& outputs, size_t batches) const;
    Status scoreStart();
    bool budgetLeft() const;
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - mStart).count(); }
    void report(const std::string& phase, int64_t done, int64_t total, const std::string& step = {});
    PrecisionPlan applied(PrecisionPlan plan) const {
        if (mOptions.policies) {
            mOptions.policies(mGraph, plan);
        } else {
            plan.applyPolicies(mGraph, {});
        }
        return plan;
    }
    // The units of `plan`: the main graph's, then the planned bodies'.
    Result<std::vector<TuneUnit>> unitsOf(const PrecisionPlan& plan) const;
    // `unit` alone INT8, for the sensitivity ranking.
    IsolatedChange isolated(const TuneUnit& unit) const;
    Status rankSensitivity(const PrecisionPlan& plan);
    // One trial: scores `candidate`, records the step, adopts the candidate when it is not worse.
    Status trial(PrecisionPlan candidate, TuneStep step);
    Status tryMethods(const TuneUnit& unit);
    // "tune: fp16, alone in INT8: 18.3 dB at the outputs (output-sqnr>=40)"; a fused node names its layer.
    std::string fallbackNote(const TuneUnit& unit, NodeId node, const std::string& why) const {
        std::string note = std::string(kTuneNotePrefix) + precisionName(mOptions.fallback);
        if (node != unit.layer) note += " with " + unit.name + " (fused)";
        return note + ", " + why + " (" + mOptions.target.text() + ")";
    }
    // `allScore`: the plan's score on all samples when already known.
    Status confirmIfHolds(std::optional<double> allScore = std::nullopt);
    Status giveBack(const PrecisionPlan& start);
    // Latency objective (tuning.h, a-d).
    bool latencyObjective() const { return mOptions.objective == TuneObjective::Latency; }
    std::optional<double> predictedMs(const PrecisionPlan& plan) const {
        if (!mOptions.latency) return std::nullopt;
        return mOptions.latency->time(plan).totalMs;
    }
    PrecisionPlan allFp16() const { return applied(PrecisionPlan(mGraph, Precision::Fp16)); }
    Status tryAllFp16();
    Status speedUp();
    Status preferAllFp16IfFaster();
    void finishLatency();

    const Graph& mGraph;
    const CalibrationResult& mCalibration;
    const TuneOptions& mOptions;
    const TuneProgressFn& mProgress;
    std::stop_token mStop;
    std::chrono::steady_clock::time_point mStart = std::chrono::steady_clock::now();
    std::unique_ptr<TuneEvaluator> mEvaluator;
    ReferenceOutputs mSubsetReference, mAllReference;
    size_t mSubsetBatches = 0;
    size_t mBatches = 0;  // the batches scores come from now: the subset, then all once a confirmation failed
    PrecisionPlan mPlan;
    double mScore = 0.0;
    bool mMet = false;
    std::set<ValueId> mMethodTried;
    TuneReport mReport;
    std::optional<double> mFp16Score;  // the all-FP16 plan's, on all samples
    std::vector<BodyGraph> mBodies;    // the model's bodies, weights copied in (tuning_units.h)
};

Result<std::vector<TuneUnit>> Tuner::unitsOf(const PrecisionPlan& plan) const {
    QL_ASSIGN_OR_RETURN(std::vector<TuneUnit> units, findUnits(mGraph, plan, mCalibration));
    if (plan.bodies().empty()) return units;
    QL_ASSIGN_OR_RETURN(std::vector<TuneUnit> inBodies, findBodyUnits(mGraph, mBodies, plan, mCalibration));
    units.insert(units.end(), std::make_move_iterator(inBodies.begin()), std::make_move_iterator(inBodies.end()));
    return units;
}

IsolatedChange Tuner::isolated(const TuneUnit& unit) const {
    if (unit.body.empty()) return {.int8Nodes = unit.nodes};
    auto plan = std::make_shared<PrecisionPlan>(mGraph, Precision::Fp32);
    PrecisionPlan* body = ensureBodyPlan(*plan, mBodies, unit.body);
    for (NodeId n : unit.nodes) body->setRequested(n, Precision::Int8);
    return {.plan = std::move(plan), .from = findBodyGraph(mBodies, {unit.body.front()})->parent};
}

void Tuner::report(const std::string& phase, int64_t done, int64_t total, const std::string& step) {
    if (!mProgress) return;
    mProgress({phase, done, total, mOptions.target.valueOf(mScore), step});
}

bool Tuner::budgetLeft() const {
    if (mOptions.maxTrials > 0 && mReport.trials >= mOptions.maxTrials) return false;
    return mOptions.maxSeconds <= 0.0 || elapsed() < mOptions.maxSeconds;
}

Status Tuner::prepare(DataSource& data) {
    QL_RETURN_IF_ERROR(checkTargetApplies(mOptions.target, mGraph));
    if (mProgress) mProgress({"reference", 0, 1, std::nullopt, "FP32 outputs"});
    QL_ASSIGN_OR_RETURN(mEvaluator,
                        TuneEvaluator::create(mGraph, mCalibration, data,
                                              {mOptions.maxSamples, mOptions.batchSize, mOptions.threads}, mStop));
    const size_t all = mEvaluator->batchCount();
    const int64_t samples = mEvaluator->samplesIn(all);
    if (mOptions.target.needsLabels() && static_cast<int64_t>(mOptions.labels.size()) < samples)
        return invalidArgument("--target " + mOptions.target.name() + " needs one label per sample: the labels hold " +
                               std::to_string(mOptions.labels.size()) + " for " + std::to_string(samples) + " samples");
    const int64_t wanted = mOptions.subsetSamples > 0 ? mOptions.subsetSamples : std::max<int64_t>(64, samples / 4);
    mSubsetBatches = all;
    while (mSubsetBatches > 1 && mEvaluator->samplesIn(mSubsetBatches - 1) >= wanted) --mSubsetBatches;
    mBatches = mSubsetBatches;
    mReport.samples = samples;
    mReport.subsetSamples = mEvaluator->samplesIn(mSubsetBatches);
    QL_ASSIGN_OR_RETURN(mSubsetReference, reference(mSubsetBatches));
    if (mSubsetBatches == all) {
        mAllReference = mSubsetReference;
    } else {
        QL_ASSIGN_OR_RETURN(mAllReference, reference(all));
    }
    if (mOptions.target.needsMetric()) mReport.fp32Metric = mAllReference.metric;
    return Status::ok();
}

Result<ReferenceOutputs> Tuner::reference(size_t batches) const {
    ReferenceOutputs r;
    r.outputs = mEvaluator->fp32Outputs(batches);
    r.sampleIndices = mEvaluator->sampleIndices(batches);
    if (!mOptions.labels.empty()) {
        const auto n = static_cast<size_t>(mEvaluator->samplesIn(batches));
        r.labels.assign(mOptions.labels.begin(),
                        mOptions.labels.begin() + static_cast<std::ptrdiff_t>(std::min(n, mOptions.labels.size())));
        r.accuracy = top1Accuracy(topClasses(r.outputs.at(0).second), r.labels);
    }
    if (mOptions.target.needsMetric()) {
        if (!mOptions.metric) return invalidArgument("--target " + mOptions.target.name() + " needs --metric-command");
        QL_ASSIGN_OR_RETURN(r.metric, mOptions.metric(r.outputs, r.sampleIndices));
    }
    return r;
}

Result<double> Tuner::score(const PrecisionPlan& plan, size_t batches) {
    QL_ASSIGN_OR_RETURN(const NamedTensors outputs, mEvaluator->outputs(plan, batches, mStop));
    return scoreOf(outputs, batches);
}

Result<double> Tuner::scoreOf(const NamedTensors& outputs, size_t batches) const {
    const ReferenceOutputs& reference = batches == mSubsetBatches ? mSubsetReference : mAllReference;
    return scoreOutputs(mOptions.target, reference, outputs, mOptions.metric);
}

// The start plan, run once over all samples: its score there and on the subset.
Status Tuner::scoreStart() {
    const size_t all = mEvaluator->batchCount();
    QL_ASSIGN_OR_RETURN(const std::vector<NamedTensors> batches, mEvaluator->batchOutputs(mPlan, all, mStop));
    QL_ASSIGN_OR_RETURN(mReport.startScore, scoreOf(concatBatches(batches), all));
    mScore = mReport.startScore;
    if (mSubsetBatches != all) {
        QL_ASSIGN_OR_RETURN(
            mScore,
            scoreOf(concatBatches({batches.begin(), batches.begin() + static_cast<std::ptrdiff_t>(mSubsetBatches)}),
                    mSubsetBatches));
    }
    return Status::ok();
}

Status Tuner::rankSensitivity(const PrecisionPlan& plan) {
    QL_ASSIGN_OR_RETURN(mReport.units, unitsOf(plan));
    std::vector<IsolatedChange> changes;
    for (const TuneUnit& unit : mReport.units) changes.push_back(isolated(unit));
    QL_ASSIGN_OR_RETURN(const AmaxByName amax, activationAmax(mCalibration, plan));
    std::set<ValueId> tensors;  // the main graph's: a body's keep their method
    for (const TuneUnit& unit : mReport.units)
        if (unit.body.empty()) tensors.insert(unit.tensors.begin(), unit.tensors.end());
    for (ValueId t : tensors) {
        const TensorRange* range = mCalibration.activation(mGraph.value(t).name);
        const float a = amax.at(mGraph.value(t).name);
        changes.push_back({.tensor = t, .amax = a});
        mReport.tensors.push_back(
            {t, range ? plan.tensorMethod(range->name).value_or(range->method) : CalibrationMethod::Entropy, a, 0.0});
    }
    QL_ASSIGN_OR_RETURN(
        const std::vector<double> db,
        mEvaluator->isolatedSqnr(
            changes, mSubsetBatches, [&](int64_t done, int64_t total) { report("sensitivity", done, total); }, mStop));
    for (size_t i = 0; i < mReport.units.size(); ++i) mReport.units[i].outputSqnrDb = db[i];
    for (size_t i = 0; i < mReport.tensors.size(); ++i) mReport.tensors[i].outputSqnrDb = db[mReport.units.size() + i];
    std::stable_sort(mReport.units.begin(), mReport.units.end(),
                     [](const TuneUnit& a, const TuneUnit& b) { return a.outputSqnrDb < b.outputSqnrDb; });
    std::stable_sort(
        mReport.tensors.begin(), mReport.tensors.end(),
        [](const TensorSensitivity& a, const TensorSensitivity& b) { return a.outputSqnrDb < b.outputSqnrDb; });
    mReport.sensitivityPasses = mEvaluator->isolatedPasses() / static_cast<double>(std::max<size_t>(1, mSubsetBatches));
    return Status::ok();
}

Status Tuner::trial(PrecisionPlan candidate, TuneStep step) {
    candidate = applied(std::move(candidate));
    QL_ASSIGN_OR_RETURN(step.score, score(candidate, mBatches));
    ++mReport.trials;
    step.samples = mEvaluator->samplesIn(mBatches);
    step.predictedMs = predictedMs(candidate);
    step.kept = step.score >= mScore;
    if (step.kept) {
        mPlan = std::move(candidate);
        mScore = step.score;
    }
    report(mBatches == mSubsetBatches ? "tuning" : "tuning (all samples)", mReport.trials, mOptions.maxTrials,
           tuneActionName(step.action) + std::string(" ") + (step.layer != kNoId ? step.layerName : step.tensor));
    mReport.steps.push_back(std::move(step));
    return Status::ok();
}

// Another method for the unit's input tensors, where one alone brings the outputs >= kMethodGainDb closer to FP32.
Status Tuner::tryMethods(const TuneUnit& unit) {
    if (!unit.body.empty()) return Status::ok();  // a body's tensors keep their method
    for (ValueId t : unit.tensors) {
        if (!mMethodTried.insert(t).second || !budgetLeft()) continue;
        const std::string& name = mGraph.value(t).name;
        const TensorRange* range = mCalibration.activation(name);
        if (!range || !range->amaxByMethod) continue;
        const CalibrationMethod current = mPlan.tensorMethod(name).value_or(range->method);
        const float currentAmax = range->amaxByMethod->of(current);
        std::vector<IsolatedChange> changes{{.tensor = t, .amax = currentAmax}};
        std::vector<CalibrationMethod> methods{current};
        for (CalibrationMethod m : kAmaxMethods) {
            const float a = range->amaxByMethod->of(m);
            if (m == current || std::fabs(a - currentAmax) <= 1e-6f * std::max(1.0f, currentAmax)) continue;
            changes.push_back({.tensor = t, .amax = a});
            methods.push_back(m);
        }
        if (changes.size() < 2) continue;
        QL_ASSIGN_OR_RETURN(const std::vector<double> db, mEvaluator->isolatedSqnr(changes, mSubsetBatches, {}, mStop));
        const size_t best = static_cast<size_t>(std::max_element(db.begin() + 1, db.end()) - db.begin());
        if (db[best] < db[0] + kMethodGainDb) continue;
        PrecisionPlan candidate = mPlan;
        candidate.setTensorMethod(name, methods[best]);
        TuneStep step;
        step.action = TuneStep::Action::Method;
        setLayer(step, unit);
        step.tensor = name;
        step.method = methods[best];
        step.why = std::string(amaxMethodKey(methods[best])) + " alone: " + decibels(db[best]) + " at the outputs, " +
                   amaxMethodKey(current) + " " + decibels(db[0]);
        candidate.setPlacementNote(unit.layer, std::string(kTuneNotePrefix) + "input '" + name + "' calibrated with " +
                                                   step.why + " (" + mOptions.target.text() + ")");
        QL_RETURN_IF_ERROR(trial(std::move(candidate), std::move(step)));
    }
    return Status::ok();
}

// When the target holds on the batches in use: on all samples too? If not, scores come from all samples now.
Status Tuner::confirmIfHolds(std::optional<double> allScore) {
    if (!mOptions.target.holds(mScore)) return Status::ok();
    if (mBatches == mEvaluator->batchCount()) {
        mMet = true;
        return Status::ok();
    }
    mBatches = mEvaluator->batchCount();
    if (allScore) {
        mScore = *allScore;
    } else {
        QL_ASSIGN_OR_RETURN(mScore, score(mPlan, mBatches));
    }
    ++mReport.trials;
    TuneStep step;
    step.action = TuneStep::Action::Confirm;
    step.score = mScore;
    step.kept = true;
    step.samples = mEvaluator->samplesIn(mBatches);
    step.predictedMs = predictedMs(mPlan);
    mReport.steps.push_back(step);
    mMet = mOptions.target.holds(mScore);
    return Status::ok();
}

// The units that fell back, most robust first: back to their start precision while the target still holds.
Status Tuner::giveBack(const PrecisionPlan& start) {
    for (auto unit = mReport.units.rbegin(); unit != mReport.units.rend(); ++unit) {
        const PrecisionPlan* from = unitPlan(start, *unit);
        if (!from || unitPlan(mPlan, *unit)->requested(unit->layer) == from->requested(unit->layer) || !budgetLeft())
            continue;
        PrecisionPlan candidate = mPlan;
        PrecisionPlan* to = unitPlan(candidate, *unit);
        for (NodeId n : unit->nodes) to->setRequested(n, from->requested(n), from->placementNote(n));
        candidate = applied(std::move(candidate));
        const std::optional<double> ms = predictedMs(candidate);
        // Planning for speed, INT8 comes back only where it does not make the plan slower (no trial spent).
        if (latencyObjective() && ms && *ms > *predictedMs(mPlan)) continue;
        QL_ASSIGN_OR_RETURN(const double s, score(candidate, mBatches));
        ++mReport.trials;
        TuneStep step;
        step.action = TuneStep::Action::GiveBack;
        setLayer(step, *unit);
        step.precision = from->requested(unit->layer);
        step.score = s;
        step.samples = mEvaluator->samplesIn(mBatches);
        step.predictedMs = ms;
        step.kept = mOptions.target.holds(s);
        if (step.kept) {
            mPlan = std::move(candidate);
            mScore = s;
        }
        report("giving back", mReport.trials, mOptions.maxTrials, "give-back " + unit->name);
        mReport.steps.push_back(std::move(step));
    }
    return Status::ok();
}

// Every layer FP16 on all samples: a point to compare with, and the plan to return if nothing faster holds.
Status Tuner::tryAllFp16() {
    const PrecisionPlan fp16 = allFp16();
    const size_t all = mEvaluator->batchCount();
    TuneStep step;
    step.action = TuneStep::Action::AllFp16;
    step.precision = Precision::Fp16;
    QL_ASSIGN_OR_RETURN(step.score, score(fp16, all));
    ++mReport.trials;
    step.samples = mEvaluator->samplesIn(all);
    step.predictedMs = predictedMs(fp16);
    step.why = "every layer FP16, to compare";
    mFp16Score = step.score;
    mReport.latency->fp16Score = step.score;
    report("speed", mReport.trials, mOptions.maxTrials, "all-fp16");
    mReport.steps.push_back(std::move(step));
    return Status::ok();
}

// The regions where INT8 does not pay, decided on predicted times, evaluated together.
Status Tuner::speedUp() {
    if (!budgetLeft()) return Status::ok();
    SpeedMoves moves = moveRegionsThatDoNotPay(mPlan, *mOptions.latency, mOptions.fallback,
                                               [this](PrecisionPlan plan) { return applied(std::move(plan)); });
    mReport.latency->predictions += moves.predictions;
    if (moves.moves == 0 || moves.moved.empty()) return Status::ok();
    TuneStep step;
    step.action = TuneStep::Action::Speed;
    step.precision = mOptions.fallback;
    step.predictedMs = predictedMs(moves.plan);
    const size_t n = moves.moved.size();
    step.why = std::to_string(n) + (n == 1 ? " layer" : " layers") + " where INT8 does not pay to " +
               precisionName(mOptions.fallback) + ": predicted " + millisecondsText(*predictedMs(mPlan)) + " -> " +
               millisecondsText(*step.predictedMs);
    QL_ASSIGN_OR_RETURN(step.score, score(moves.plan, mBatches));
    ++mReport.trials;
    step.samples = mEvaluator->samplesIn(mBatches);
    step.kept = mOptions.target.holds(step.score) || step.score >= mScore;
    if (step.kept) {
        mPlan = std::move(moves.plan);
        mScore = step.score;
        for (RegionDecision& d : moves.moved) mReport.latency->regions.push_back(std::move(d));
    }
    report("speed", mReport.trials, mOptions.maxTrials, "speed");
    mReport.steps.push_back(std::move(step));
    return Status::ok();
}

// The all-FP16 plan when it holds and is predicted no slower than the plan found (which still runs some INT8): INT8
// pays nowhere.
Status Tuner::preferAllFp16IfFaster() {
    if (!mFp16Score || !mOptions.target.holds(*mFp16Score)) return Status::ok();
    const auto& nodes = mGraph.nodes();
    if (std::none_of(nodes.begin(), nodes.end(),
                     [&](const Node& n) { return mPlan.effective(n.id) == Precision::Int8; }))
        return Status::ok();
    const double fp16Ms = mReport.latency->fp16Ms, ms = *predictedMs(mPlan);
    if (fp16Ms > ms) return Status::ok();
    TuneStep step;
    step.action = TuneStep::Action::AllFp16;
    step.precision = Precision::Fp16;
    step.score = *mFp16Score;
    step.kept = true;
    step.samples = mEvaluator->samplesIn(mEvaluator->batchCount());
    step.predictedMs = fp16Ms;
    step.why = "all-FP16 predicted " + millisecondsText(fp16Ms) + ", no slower than the best mixed plan (" +
               millisecondsText(ms) + ")";
    // All-FP16, with the notes of the layers already out of INT8.
    PrecisionPlan fp16 = mPlan;
    const std::string note = std::string(kTuneNotePrefix) + "fp16 for speed on " + mOptions.latency->gpu() + ", " +
                             step.why + " (predicted, an estimate)";
    for (const Node& node : nodes)
        if (fp16.requested(node.id) != Precision::Fp16)
            fp16.setRequested(node.id, Precision::Fp16,
                              fp16.requested(node.id) == Precision::Int8 ? note : fp16.placementNote(node.id));
    mPlan = applied(std::move(fp16));
    mScore = step.score;
    mReport.steps.push_back(std::move(step));
    return Status::ok();
}

void Tuner::finishLatency() {
    TuneLatency& latency = *mReport.latency;
    if (latencyObjective()) {
        std::vector<RegionDecision> kept =
            assessInt8Regions(mPlan, *mOptions.latency, mOptions.fallback,
                              [this](PrecisionPlan plan) { return applied(std::move(plan)); });
        noteKeptRegions(mPlan, kept, mOptions.latency->gpu());
        for (RegionDecision& d : kept) latency.regions.push_back(std::move(d));
    }
    latency.finalMs = *predictedMs(mPlan);
}

Result<TuneReport> Tuner::run(const PrecisionPlan& start, DataSource& data) {
    if (latencyObjective() && !mOptions.latency)
        return invalidArgument("the latency objective needs a GPU to predict the engine's time on");
    QL_RETURN_IF_ERROR(prepare(data));
    mReport.target = mOptions.target;
    mReport.objective = mOptions.objective;
    // Where the default placement cannot be placed on this calibration, there is nothing to tell apart: the start
    // plan is tuned as it is.
    Result<std::vector<TuneUnit>> found = planKeptOutUnits(mGraph, start, mCalibration);
    const std::vector<TuneUnit> planKeptOut = found.isOk() ? std::move(found).value() : std::vector<TuneUnit>{};
    if (mOptions.keepPlanKeptOut)
        for (const TuneUnit& unit : planKeptOut) mReport.planKeptOut.push_back(unit.layer);
    mPlan = applied(mOptions.keepPlanKeptOut ? start : released(start, planKeptOut));
    mBodies = buildBodyGraphs(mGraph, OuterInitializers::Copied);
    QL_ASSIGN_OR_RETURN(const std::vector<TuneUnit> startUnits, unitsOf(mPlan));
    QL_RETURN_IF_ERROR(scoreStart());
    mReport.trials = 1;
    TuneStep baseline;
    baseline.score = mScore;
    baseline.kept = true;
    baseline.samples = mEvaluator->samplesIn(mBatches);
    baseline.predictedMs = predictedMs(mPlan);
    mReport.steps.push_back(baseline);
    if (mOptions.latency) {
        mReport.latency.emplace();
        mReport.latency->gpu = mOptions.latency->gpu();
        mReport.latency->startMs = *baseline.predictedMs;
        mReport.latency->fp16Ms = *predictedMs(allFp16());
    }
    bool startPlan = true;  // mPlan is still the start plan, whose score on all samples is known
    if (latencyObjective()) {
        QL_RETURN_IF_ERROR(tryAllFp16());
        QL_RETURN_IF_ERROR(speedUp());
        startPlan = !(mReport.steps.back().action == TuneStep::Action::Speed && mReport.steps.back().kept);
    }
    const PrecisionPlan accuracyStart = mPlan;
    QL_RETURN_IF_ERROR(startPlan ? confirmIfHolds(mReport.startScore) : confirmIfHolds());
    if (mMet) {  // nothing to tune; the units still say what runs INT8
        QL_ASSIGN_OR_RETURN(mReport.units, unitsOf(mPlan));
    } else {
        QL_RETURN_IF_ERROR(rankSensitivity(mPlan));
    }
    for (const TuneUnit& unit : mReport.units) {
        if (mMet || !budgetLeft()) break;
        QL_RETURN_IF_ERROR(tryMethods(unit));
        QL_RETURN_IF_ERROR(confirmIfHolds());
        if (mMet || !budgetLeft()) break;
        PrecisionPlan candidate = mPlan;
        TuneStep step;
        step.action = TuneStep::Action::Fallback;
        setLayer(step, unit);
        step.precision = mOptions.fallback;
        step.why = "alone in INT8: " + decibels(unit.outputSqnrDb) + " at the outputs";
        PrecisionPlan* at = unitPlan(candidate, unit);
        for (NodeId n : unit.nodes) at->setRequested(n, mOptions.fallback, fallbackNote(unit, n, step.why));
        QL_RETURN_IF_ERROR(trial(std::move(candidate), std::move(step)));
        QL_RETURN_IF_ERROR(confirmIfHolds());
    }
    if (mMet) QL_RETURN_IF_ERROR(giveBack(accuracyStart));
    if (latencyObjective() && mMet) {
        QL_RETURN_IF_ERROR(speedUp());
        QL_RETURN_IF_ERROR(preferAllFp16IfFaster());
    }
    if (mBatches != mEvaluator->batchCount()) {
        QL_ASSIGN_OR_RETURN(mScore, score(mPlan, mEvaluator->batchCount()));
        mMet = mOptions.target.holds(mScore);
    }
    mReport.met = mMet;
    mReport.finalScore = mScore;
    mReport.startUnits = static_cast<int64_t>(startUnits.size());
    for (const TuneUnit& unit : startUnits) {
        if (unitEffective(mPlan, unit) == Precision::Int8) continue;
        if (unit.body.empty()) {
            mReport.keptOut.push_back(unit.layer);
        } else {
            mReport.keptOutInBodies.push_back(unit);
        }
    }
    std::tie(mReport.int8Macs, mReport.totalMacs) = int8Macs(mGraph, mPlan, mBodies);
    if (mOptions.latency) finishLatency();
    mReport.plan = mPlan;
    mReport.seconds = elapsed();
    return std::move(mReport);
}

}  // namespace

const char* tuneActionName(TuneStep::Action action) {
    switch (action) {
        case TuneStep::Action::Baseline:
            return "baseline";
        case TuneStep::Action::Method:
            return "method";
        case TuneStep::Action::Fallback:
            return "fallback";
        case TuneStep::Action::GiveBack:
            return "give-back";
        case TuneStep::Action::Confirm:
            return "confirm";
        case TuneStep::Action::Speed:
            return "speed";
        case TuneStep::Action::AllFp16:
            return "all-fp16";
    }
    return "baseline";
}

const char* tuneObjectiveName(TuneObjective objective) {
    return objective == TuneObjective::Latency ? "latency" : "accuracy";
}

Result<std::vector<NodeId>> planKeptOutLayers(const Graph& graph, const PrecisionPlan& plan,
                                              const CalibrationResult& calibration) {
    QL_ASSIGN_OR_RETURN(const std::vector<TuneUnit> units, planKeptOutUnits(graph, plan, calibration));
    std::vector<NodeId> layers;
    for (const TuneUnit& unit : units) layers.push_back(unit.layer);
    return layers;
}

std::pair<int64_t, int64_t> int8Macs(const Graph& graph, const PrecisionPlan& plan,
                                     const std::vector<BodyGraph>& bodies) {
    int64_t int8 = 0, total = 0;
    addMacs(graph, &plan, bodies, int8, total);
    return {int8, total};
}

Result<TuneReport> tune(const Graph& graph, const PrecisionPlan& start, const CalibrationResult& calibration,
                        DataSource& data, const TuneOptions& options, const TuneProgressFn& progress,
                        std::stop_token stop) {
    if (start.size() != graph.nodes().size()) return invalidArgument("the precision plan was made for another model");
    try {
        Tuner tuner(graph, calibration, options, progress, std::move(stop));
        if (options.objective == TuneObjective::Accuracy) return tuner.run(start, data);
        PrecisionPlan forSpeed = start;
        startDetectorHeadsInInt8(forSpeed);
        return tuner.run(forSpeed, data);
    } catch (const std::bad_alloc&) {
        return invalidArgument("tuning ran out of memory; use --samples to tune on fewer samples");
    }
}

}  // namespace ql
