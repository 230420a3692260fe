#include "core/quant/latency_regions.h"

#include <algorithm>
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

std::string why(const RegionDecision& d, Precision fallback) {
    const bool pays = d.pays();
    // Below what the text shows (0.0000 ms), a layer's INT8 gains nothing and reformats cost the same.
    constexpr double kShownMs = 5e-5;
    const bool nothing = std::fabs(d.int8SavesMs) < kShownMs;
    std::string text = nothing                ? std::string("INT8 saves nothing")
                       : d.int8SavesMs >= 0.0 ? "INT8 saves " + millisecondsText(d.int8SavesMs)
                                              : "INT8 is " + millisecondsText(-d.int8SavesMs) + " slower";
    text += nothing ? " and " : d.int8SavesMs >= 0.0 && !pays ? " but " : ", ";
    if (d.reformats > 0)
        text += "its " + reformatWord(d.reformats) + " cost " + millisecondsText(d.reformatCostMs);
    else if (d.reformats < 0)
        text += "it spares " + reformatWord(-d.reformats) + " (" + millisecondsText(-d.reformatCostMs) + ")";
    else if (d.reformatCostMs >= kShownMs)
        text += "its reformats cost " + millisecondsText(d.reformatCostMs) + " more";
    else if (d.reformatCostMs <= -kShownMs)
        text += "its reformats cost " + millisecondsText(-d.reformatCostMs) + " less";
    else
        text += "it adds no reformat";
    const std::string other = precisionName(fallback);
    if (pays) return text + ": " + millisecondsText(d.netMs()) + " faster than " + other;
    if (d.netMs() < -kTieMs) return text + ": " + millisecondsText(-d.netMs()) + " slower than " + other;
    return text + ": no faster than " + other;
}

using Layers = std::vector<std::vector<NodeId>>;

std::vector<NodeId> nodesOf(const Layers& layers) {
    std::vector<NodeId> nodes;
    for (const auto& layer : layers) nodes.insert(nodes.end(), layer.begin(), layer.end());
    return nodes;
}

class RegionSearch {
public:
    RegionSearch(const PrecisionPlan& start, const PlanLatencyModel& model, Precision fallback,
                 const ApplyPolicies& apply)
        : mStart(start), mModel(model), mFallback(fallback), mApply(apply) {}

    // `nodes` requested INT8 moved to the fallback, noted `note` (empty: their notes stay); nullopt when none is
    // requested INT8 (nothing to move).
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
        return applied(std::move(candidate));
    }

    // `nodes` the start plan requested INT8 back in INT8, with their start notes.
    std::optional<PrecisionPlan> returned(const PrecisionPlan& plan, const std::vector<NodeId>& nodes) const {
        PrecisionPlan candidate = plan;
        bool changed = false;
        for (NodeId n : nodes) {
            if (mStart.requested(n) != Precision::Int8 || candidate.requested(n) == Precision::Int8) continue;
            candidate.setRequested(n, Precision::Int8, mStart.placementNote(n));
            changed = true;
        }
        if (!changed) return std::nullopt;
        return applied(std::move(candidate));
    }

    // Moving `layers` to the fallback (one island, or one layer of it), against `now`, the plan's time.
    std::optional<RegionDecision> assessMove(const PrecisionPlan& plan, const PlanTime& now, const Layers& layers) {
        const std::optional<PrecisionPlan> candidate = moved(plan, nodesOf(layers));
        if (!candidate) return std::nullopt;
        return decision(layers, now, time(*candidate), mFallback);
    }

    // Returning `layers` (moved earlier) to INT8, against `now`.
    std::optional<RegionDecision> assessReturn(const PrecisionPlan& plan, const PlanTime& now, const Layers& layers) {
        const std::optional<PrecisionPlan> candidate = returned(plan, nodesOf(layers));
        if (!candidate) return std::nullopt;
        return decision(layers, time(*candidate), now, mFallback);
    }

    PlanTime time(const PrecisionPlan& plan) {
        ++mPredictions;
        return mModel.time(plan);
    }
    int64_t predictions() const { return mPredictions; }

private:
    PrecisionPlan applied(PrecisionPlan plan) const { return mApply ? mApply(std::move(plan)) : plan; }

    static RegionDecision decision(const Layers& layers, const PlanTime& int8, const PlanTime& other,
                                   Precision fallback) {
        return regionDecision(nodesOf(layers), static_cast<int64_t>(layers.size()), int8, other, fallback);
    }

    const PrecisionPlan& mStart;
    const PlanLatencyModel& mModel;
    Precision mFallback;
    const ApplyPolicies& mApply;
    int64_t mPredictions = 0;
};

}  // namespace

RegionDecision regionDecision(std::vector<NodeId> nodes, int64_t layers, const PlanTime& int8, const PlanTime& other,
                              Precision fallback) {
    RegionDecision d;
    d.nodes = std::move(nodes);
    d.layers = layers;
    d.int8SavesMs = (other.totalMs - other.reformatMs) - (int8.totalMs - int8.reformatMs);
    d.reformatCostMs = int8.reformatMs - other.reformatMs;
    d.reformats = int8.reformats - other.reformats;
    d.precision = d.pays() ? Precision::Int8 : fallback;
    d.why = why(d, fallback);
    return d;
}

bool RegionDecision::pays() const {
    return netMs() > kTieMs;
}

std::string millisecondsText(double ms) {
    char text[32];
    std::snprintf(text, sizeof(text), std::fabs(ms) >= 0.01 || ms == 0.0 ? "%.3f ms" : "%.4f ms", ms);
    return text;
}

// Hill climbing on the predicted time: each round, the one move that shortens it most (a tie counts for a move to
// the fallback: INT8 that gains nothing does not pay): an INT8 island or one of its layers to the fallback, or a
// layer moved earlier back to INT8 (an island that did not pay whole may hold layers that do). Every move but a
// tie shortens the time and a tie adds fallback nodes, so no plan comes twice and the search ends.
SpeedMoves moveRegionsThatDoNotPay(PrecisionPlan plan, const PlanLatencyModel& model, Precision fallback,
                                   const ApplyPolicies& apply, int64_t maxMoves) {
    const PrecisionPlan start = plan;
    SpeedMoves result;
    RegionSearch search(start, model, fallback, apply);
    Layers movedLayers;  // every layer a move took to the fallback, once
    // A bound that only guards against a model whose times are not what they seem (see above).
    const auto maxRounds = static_cast<int64_t>(2 * start.size() + 1);
    for (int64_t round = 0; round < maxRounds; ++round) {
        if (maxMoves > 0 && result.moves >= maxMoves) break;
        const PlanTime now = search.time(plan);
        struct Move {
            RegionDecision decision;
            Layers layers;
            bool returns = false;
            double saves() const { return returns ? decision.netMs() : -decision.netMs(); }
        };
        std::optional<Move> best;
        auto consider = [&](std::optional<RegionDecision> d, const Layers& layers, bool returns) {
            if (!d || (returns ? !d->pays() : d->pays())) return;
            Move move{std::move(*d), layers, returns};
            if (!best || move.saves() > best->saves()) best = std::move(move);
        };
        for (const Int8Island& island : model.int8Islands(plan)) {
            consider(search.assessMove(plan, now, island), island, false);
            if (island.size() > 1)
                for (const auto& layer : island) consider(search.assessMove(plan, now, {layer}), {layer}, false);
        }
        for (const auto& layer : movedLayers) consider(search.assessReturn(plan, now, {layer}), {layer}, true);
        if (!best) break;
        if (best->returns) {
            plan = *search.returned(plan, best->decision.nodes);
        } else {
            plan = *search.moved(plan, best->decision.nodes);
            for (auto& layer : best->layers)
                if (std::find(movedLayers.begin(), movedLayers.end(), layer) == movedLayers.end())
                    movedLayers.push_back(std::move(layer));
        }
        ++result.moves;
    }
    // Why each layer the search left in the fallback is there: what returning it alone would change.
    const PlanTime now = search.time(plan);
    for (const auto& layer : movedLayers) {
        std::optional<RegionDecision> d = search.assessReturn(plan, now, {layer});
        if (!d) continue;
        d->precision = fallback;
        const std::string note = regionNote(*d, model.gpu());
        for (NodeId n : d->nodes)
            if (start.requested(n) == Precision::Int8) plan.setPlacementNote(n, note);
        result.moved.push_back(std::move(*d));
    }
    result.plan = std::move(plan);
    result.predictions = search.predictions();
    return result;
}

std::vector<RegionDecision> assessInt8Regions(const PrecisionPlan& plan, const PlanLatencyModel& model,
                                              Precision fallback, const ApplyPolicies& apply) {
    RegionSearch search(plan, model, fallback, apply);
    const PlanTime now = search.time(plan);
    std::vector<RegionDecision> regions;
    for (const Int8Island& island : model.int8Islands(plan))
        if (auto assessed = search.assessMove(plan, now, island)) {
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
