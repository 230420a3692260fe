#include "core/quant/latency_regions.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "core/quant/tuning.h"

namespace ql {
namespace {

// A move whose predicted time is within this of the plan's counts as no slower: INT8 that gains nothing does
// not pay (the fallback is the more accurate).
constexpr double kTieMs = 1e-9;

std::string reformatWord(int64_t n) {
    return std::to_string(n) + (n == 1 ? " reformat" : " reformats");
}

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string why(const RegionDecision& d, Precision fallback) {
    const bool pays = d.pays();
    std::string text = d.int8SavesMs >= 0.0 ? "INT8 saves " + millisecondsText(d.int8SavesMs)
                                            : "INT8 is " + millisecondsText(-d.int8SavesMs) + " slower";
    text += d.int8SavesMs >= 0.0 && !pays ? " but " : ", ";
    if (d.reformats > 0)
        text += "its " + reformatWord(d.reformats) + " cost " + millisecondsText(d.reformatCostMs);
    else if (d.reformats < 0)
        text += "it spares " + reformatWord(-d.reformats) + " (" + millisecondsText(-d.reformatCostMs) + ")";
    else if (std::fabs(d.reformatCostMs) > kTieMs)
        text += "its reformats cost " + millisecondsText(d.reformatCostMs);
    else
        text += "it adds no reformat";
    const std::string other = lower(upperPrecisionName(fallback));
    if (pays) return text + ": " + millisecondsText(d.netMs()) + " faster than " + other;
    if (d.netMs() < -kTieMs) return text + ": " + millisecondsText(-d.netMs()) + " slower than " + other;
    return text + ": no faster than " + other;
}

class RegionSearch {
public:
    RegionSearch(const PlanLatencyModel& model, Precision fallback, const ApplyPolicies& apply)
        : mModel(model), mFallback(fallback), mApply(apply) {}

    // `nodes` moved to the fallback in `plan`, noted `note` (empty: their notes stay); nullopt when none of them
    // is requested INT8 (nothing to move).
    std::optional<PrecisionPlan> moved(const PrecisionPlan& plan, const std::vector<NodeId>& nodes,
                                       const std::string& note = {}) const {
        PrecisionPlan candidate = plan;
        bool changed = false;
        for (NodeId n : nodes) {
            if (candidate.requested(n) != Precision::Int8) continue;
            candidate.setRequested(n, mFallback, note.empty() ? candidate.placementNote(n) : note);
            changed = true;
        }
        if (!changed) return std::nullopt;
        return mApply ? mApply(std::move(candidate)) : candidate;
    }

    // What moving `layers` (one island or one layer of it) would change against `now`, the plan's time.
    std::optional<RegionDecision> assess(const PrecisionPlan& plan, const PlanTime& now,
                                         const std::vector<std::vector<NodeId>>& layers) {
        RegionDecision d;
        for (const auto& layer : layers) d.nodes.insert(d.nodes.end(), layer.begin(), layer.end());
        d.layers = static_cast<int64_t>(layers.size());
        std::optional<PrecisionPlan> candidate = moved(plan, d.nodes);
        if (!candidate) return std::nullopt;
        const PlanTime then = mModel.time(*candidate);
        ++mPredictions;
        d.int8SavesMs = (then.totalMs - then.reformatMs) - (now.totalMs - now.reformatMs);
        d.reformatCostMs = now.reformatMs - then.reformatMs;
        d.reformats = now.reformats - then.reformats;
        d.precision = d.pays() ? Precision::Int8 : mFallback;
        d.why = why(d, mFallback);
        return d;
    }

    int64_t predictions() const { return mPredictions; }

private:
    const PlanLatencyModel& mModel;
    Precision mFallback;
    const ApplyPolicies& mApply;
    int64_t mPredictions = 0;
};

}  // namespace

bool RegionDecision::pays() const {
    return netMs() > kTieMs;
}

std::string millisecondsText(double ms) {
    char text[32];
    std::snprintf(text, sizeof(text), std::fabs(ms) >= 0.01 || ms == 0.0 ? "%.3f ms" : "%.4f ms", ms);
    return text;
}

SpeedMoves moveRegionsThatDoNotPay(PrecisionPlan plan, const PlanLatencyModel& model, Precision fallback,
                                   const ApplyPolicies& apply, int64_t maxMoves) {
    SpeedMoves result;
    RegionSearch search(model, fallback, apply);
    for (;;) {
        if (maxMoves > 0 && static_cast<int64_t>(result.moved.size()) >= maxMoves) break;
        const PlanTime now = model.time(plan);
        ++result.predictions;
        // Candidates: every island whole, and each layer of an island of several.
        std::vector<std::vector<std::vector<NodeId>>> candidates;
        for (const Int8Island& island : model.int8Islands(plan)) {
            candidates.push_back(island);
            if (island.size() > 1)
                for (const auto& layer : island) candidates.push_back({layer});
        }
        std::optional<RegionDecision> best;
        for (const auto& candidate : candidates) {
            std::optional<RegionDecision> assessed = search.assess(plan, now, candidate);
            if (!assessed || assessed->precision == Precision::Int8) continue;
            if (!best || assessed->netMs() < best->netMs()) best = std::move(assessed);
        }
        if (!best) break;
        plan = *search.moved(plan, best->nodes, regionNote(*best, model.gpu()));
        result.moved.push_back(std::move(*best));
    }
    result.plan = std::move(plan);
    result.predictions += search.predictions();
    return result;
}

std::vector<RegionDecision> assessInt8Regions(const PrecisionPlan& plan, const PlanLatencyModel& model,
                                              Precision fallback, const ApplyPolicies& apply) {
    RegionSearch search(model, fallback, apply);
    const PlanTime now = model.time(plan);
    std::vector<RegionDecision> regions;
    for (const Int8Island& island : model.int8Islands(plan))
        if (auto assessed = search.assess(plan, now, island)) {
            assessed->precision = Precision::Int8;
            regions.push_back(std::move(*assessed));
        }
    return regions;
}

std::string regionNote(const RegionDecision& decision, const std::string& gpu) {
    const std::string head = decision.precision != Precision::Int8
                                 ? std::string(precisionName(decision.precision)) + " for speed on " + gpu
                             : decision.pays() ? "int8 pays on " + gpu
                                               : "int8, does not pay on " + gpu;
    return std::string(kTuneNotePrefix) + head + ", " + decision.why + " (predicted, an estimate)";
}

void noteKeptRegions(PrecisionPlan& plan, const std::vector<RegionDecision>& kept, const std::string& gpu) {
    for (const RegionDecision& d : kept) {
        const std::string note = regionNote(d, gpu);
        for (NodeId n : d.nodes) {
            if (plan.requested(n) != Precision::Int8) continue;
            const std::string& had = plan.placementNote(n);
            plan.setPlacementNote(n, had.empty() ? note : had + "; " + note);
        }
    }
}

}  // namespace ql
