#include "core/engine/ab_regions.h"

#include <algorithm>
#include <cstdio>

#include "core/common/disjoint_sets.h"

namespace ql {

namespace {

constexpr double kLittleOwnGain = 0.25;        // a layer saving less than this share on its own is a candidate
constexpr double kContestedShare = 0.10;       // contested: INT8 saves less than this share of the FP16 time
constexpr double kContestedFloorMs = 0.001;    // ... or less than 1 us
constexpr size_t kMostCandidatesWeighed = 64;  // each costs a realization and a prediction

constexpr size_t kNone = static_cast<size_t>(-1);

// Per node, the predicted non-reformat layer holding it.
std::vector<size_t> layerOfNodes(const Graph& graph, const EnginePrediction& prediction) {
    std::vector<size_t> layerOf(graph.nodes().size(), kNone);
    for (size_t i = 0; i < prediction.layers.size(); ++i)
        if (prediction.layers[i].kind != PredictedKind::Reformat)
            for (NodeId n : prediction.layers[i].nodes) layerOf[static_cast<size_t>(n)] = i;
    return layerOf;
}

// The layers that wrote what `node` reads, behind the nodes no layer holds (Q/DQ, reshapes, casts).
void producerLayers(const Graph& graph, const std::vector<size_t>& layerOf, NodeId node, std::vector<size_t>& out,
                    int depth = 0) {
    if (depth > 16) return;
    for (ValueId v : graph.node(node).inputs) {
        if (v == kNoId) continue;
        const NodeId p = graph.value(v).producer;
        if (p == kNoId) continue;
        const size_t layer = layerOf[static_cast<size_t>(p)];
        if (layer == kNone)
            producerLayers(graph, layerOf, p, out, depth + 1);
        else if (std::find(out.begin(), out.end(), layer) == out.end())
            out.push_back(layer);
    }
}

// `layers` split into the groups `joins` (a producer, a reader) links through the tensors between them.
template <typename Joins>
std::vector<std::vector<size_t>> connectedLayers(const Graph& graph, const EnginePrediction& prediction,
                                                 const std::vector<size_t>& layerOf, const std::vector<size_t>& layers,
                                                 const Joins& joins) {
    DisjointSets sets(prediction.layers.size());
    const auto member = [&](size_t l) { return std::find(layers.begin(), layers.end(), l) != layers.end(); };
    for (size_t i : layers)
        for (NodeId n : prediction.layers[i].nodes) {
            std::vector<size_t> producers;
            producerLayers(graph, layerOf, n, producers);
            for (size_t p : producers)
                if (p != i && member(p) && joins(p, i)) sets.attach(p, i);
        }
    std::vector<std::vector<size_t>> groups;
    std::vector<size_t> roots;
    for (size_t i : layers) {
        const size_t root = sets.root(i);
        const auto it = std::find(roots.begin(), roots.end(), root);
        if (it == roots.end()) {
            roots.push_back(root);
            groups.push_back({i});
        } else {
            groups[static_cast<size_t>(it - roots.begin())].push_back(i);
        }
    }
    return groups;
}

enum class CandidateKind { Island, LowGainRun, Layer };

struct Candidate {
    std::vector<size_t> layers;  // INT8 layers of the plan's prediction
    double ownGain = 0.0;        // share its layers save on their own: the least weighed first
    CandidateKind kind = CandidateKind::Layer;
};

std::vector<NodeId> nodesOf(const EnginePrediction& prediction, const std::vector<size_t>& layers) {
    std::vector<NodeId> nodes;
    for (size_t i : layers)
        nodes.insert(nodes.end(), prediction.layers[i].nodes.begin(), prediction.layers[i].nodes.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

std::string microseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f us", ms * 1000.0);
    return text;
}

std::string reasonOf(const AbRegion& region, CandidateKind kind, const PredictedLayer& first,
                     const LayerTime& firstTime) {
    std::string what;
    if (kind == CandidateKind::Island)
        what = "INT8 island of " + std::to_string(region.layers) + " layer" + (region.layers == 1 ? "" : "s");
    else if (kind == CandidateKind::LowGainRun)
        what = "run of " + std::to_string(region.layers) + " INT8 layers that gain little on their own";
    else if (first.costClass == CostClass::Depthwise)
        what = "depthwise convolution (CUDA cores, no tensor-core INT8 gain)";
    else if (!firstTime.computeBound())
        what = "memory-bound layer";
    else
        what = std::string(predictedKindName(first.kind)) + " layer with little INT8 gain";
    if (region.int8GainMs < 0)
        return what + ": FP16 predicted faster by " + microseconds(-region.int8GainMs) +
               " (reformats and INT8 kernels cost more than INT8 saves)";
    char share[32];
    std::snprintf(share, sizeof(share), "%.0f%%", region.fp16Ms > 0 ? 100.0 * region.int8GainMs / region.fp16Ms : 0.0);
    return what + ": INT8 predicted to save only " + microseconds(region.int8GainMs) + " (" + share +
           " of its FP16 time)";
}

}  // namespace

ContestedRegions contestedRegions(const Graph& graph, const PrecisionPlan& plan, const TrtTarget& target,
                                  const GpuProfile& profile, const PlanRealizer& realize, size_t limit) {
    ContestedRegions result;
    const EnginePrediction base = predictEngine(graph, plan, target);
    const LatencyEstimate baseTimes = estimateLatency(base, profile);
    result.planMs = baseTimes.totalMs;
    const EnginePrediction fp16 = predictEngine(graph, realize(PrecisionPlan(graph, Precision::Fp16)), target);
    const LatencyEstimate fp16Times = estimateLatency(fp16, profile);
    result.fp16Ms = fp16Times.totalMs;

    const std::vector<size_t> layerOf = layerOfNodes(graph, base);
    const std::vector<size_t> fp16LayerOf = layerOfNodes(graph, fp16);
    std::vector<size_t> int8Layers;
    for (size_t i = 0; i < base.layers.size(); ++i)
        if (base.layers[i].kind != PredictedKind::Reformat && base.layers[i].precision == EnginePrecision::Int8)
            int8Layers.push_back(i);
    if (int8Layers.empty()) return result;

    // The FP16 time of a set of layers: the all-FP16 engine's layers holding their nodes.
    const auto fp16TimeOf = [&](const std::vector<size_t>& layers) {
        std::vector<size_t> seen;
        double ms = 0.0;
        for (NodeId n : nodesOf(base, layers)) {
            const size_t l = fp16LayerOf[static_cast<size_t>(n)];
            if (l == kNone || std::find(seen.begin(), seen.end(), l) != seen.end()) continue;
            seen.push_back(l);
            ms += fp16Times.layers[l].ms;
        }
        return ms;
    };

    // What each INT8 layer saves on its own against its time in the all-FP16 engine.
    const auto ownGainOf = [&](const std::vector<size_t>& layers) {
        double int8Ms = 0.0;
        for (size_t i : layers) int8Ms += baseTimes.layers[i].ms;
        const double ms16 = fp16TimeOf(layers);
        return ms16 > 0 ? (ms16 - int8Ms) / ms16 : 0.0;
    };
    std::vector<bool> lowGain(base.layers.size(), false);
    for (size_t i : int8Layers) lowGain[i] = ownGainOf({i}) < kLittleOwnGain;

    std::vector<Candidate> candidates;
    const auto addCandidate = [&](std::vector<size_t> layers, CandidateKind kind) {
        std::sort(layers.begin(), layers.end());
        if (std::none_of(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.layers == layers; }))
            candidates.push_back({layers, ownGainOf(layers), kind});
    };
    // Islands (INT8 layers joined through the tensors between them) when the plan has several, and runs of
    // low-gain INT8 layers: flipping one layer of a run alone would only move the reformats to its neighbours.
    for (const bool runsOfLowGain : {false, true}) {
        const auto joins = [&](size_t a, size_t b) {
            return base.layers[a].precision == EnginePrecision::Int8 && (!runsOfLowGain || (lowGain[a] && lowGain[b]));
        };
        std::vector<std::vector<size_t>> groups = connectedLayers(graph, base, layerOf, int8Layers, joins);
        if (runsOfLowGain) {
            for (auto& layers : groups)
                if (lowGain[layers.front()]) addCandidate(layers, CandidateKind::LowGainRun);
        } else if (groups.size() > 1) {
            for (auto& layers : groups) addCandidate(layers, CandidateKind::Island);
        }
    }
    for (size_t i : int8Layers)
        if (lowGain[i]) addCandidate({i}, CandidateKind::Layer);
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.ownGain < b.ownGain; });
    if (candidates.size() > kMostCandidatesWeighed) candidates.resize(kMostCandidatesWeighed);
    result.candidates = static_cast<int>(candidates.size());

    std::vector<AbRegion> contested;
    for (const Candidate& candidate : candidates) {
        AbRegion region;
        region.nodes = nodesOf(base, candidate.layers);
        region.layers = static_cast<int>(candidate.layers.size());
        region.name = base.layers[candidate.layers.front()].name;
        PrecisionPlan flipped = plan;
        for (NodeId n : region.nodes) flipped.setRequested(n, Precision::Fp16);
        const EnginePrediction without = predictEngine(graph, realize(std::move(flipped)), target);
        region.int8GainMs = estimateLatency(without, profile).totalMs - baseTimes.totalMs;
        region.fp16Ms = fp16TimeOf(candidate.layers);
        if (region.int8GainMs >= std::max(kContestedFloorMs, kContestedShare * region.fp16Ms)) continue;
        const size_t first = candidate.layers.front();
        region.reason = reasonOf(region, candidate.kind, base.layers[first], baseTimes.layers[first]);
        contested.push_back(std::move(region));
    }
    std::stable_sort(contested.begin(), contested.end(),
                     [](const AbRegion& a, const AbRegion& b) { return a.int8GainMs < b.int8GainMs; });
    // A region overlapping one INT8 helps less would time the same layers again: one build each.
    std::vector<bool> taken(graph.nodes().size(), false);
    for (AbRegion& region : contested) {
        if (std::any_of(region.nodes.begin(), region.nodes.end(),
                        [&](NodeId n) { return taken[static_cast<size_t>(n)]; }))
            continue;
        for (NodeId n : region.nodes) taken[static_cast<size_t>(n)] = true;
        if (result.regions.size() < limit)
            result.regions.push_back(std::move(region));
        else
            ++result.leftOut;
    }
    return result;
}

}  // namespace ql
