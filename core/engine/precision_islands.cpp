#include "core/engine/precision_islands.h"

#include <functional>
#include <numeric>

namespace ql {
namespace {

bool isComputeLayer(const PredictedLayer& layer) {
    return layer.kind != PredictedKind::Reformat && !layer.nodes.empty();
}

int findRoot(std::vector<int>& parent, int i) {
    while (parent[static_cast<size_t>(i)] != i)
        i = parent[static_cast<size_t>(i)] = parent[static_cast<size_t>(parent[static_cast<size_t>(i)])];
    return i;
}

// Which layer computes each node, and the layers around a tensor seen through the nodes that make no layer.
class LayerLinks {
public:
    LayerLinks(const Graph& graph, const EnginePrediction& prediction)
        : mGraph(graph), mLayerOf(graph.nodes().size(), -1) {
        for (size_t i = 0; i < prediction.layers.size(); ++i)
            if (isComputeLayer(prediction.layers[i]))
                for (NodeId n : prediction.layers[i].nodes) mLayerOf[static_cast<size_t>(n)] = static_cast<int>(i);
    }

    // The layers that wrote `v`: its producer's, or, through a node that makes no layer, its inputs' writers.
    void writers(ValueId v, std::vector<int>& out, int depth = 0) const {
        if (v == kNoId || depth > kMaxDepth) return;
        const NodeId p = mGraph.value(v).producer;
        if (p == kNoId) return;
        if (const int l = mLayerOf[static_cast<size_t>(p)]; l >= 0) {
            out.push_back(l);
            return;
        }
        for (ValueId in : mGraph.node(p).inputs) writers(in, out, depth + 1);
    }

    // The layers that read `v`: its consumers', or, through a node that makes no layer, its outputs' readers.
    void readers(ValueId v, std::vector<int>& out, int depth = 0) const {
        if (v == kNoId || depth > kMaxDepth) return;
        for (NodeId c : mGraph.value(v).consumers) {
            if (const int l = mLayerOf[static_cast<size_t>(c)]; l >= 0) {
                out.push_back(l);
                continue;
            }
            for (ValueId o : mGraph.node(c).outputs) readers(o, out, depth + 1);
        }
    }

private:
    static constexpr int kMaxDepth = 32;
    const Graph& mGraph;
    std::vector<int> mLayerOf;
};

}  // namespace

std::vector<PrecisionIsland> precisionIslands(const Graph& graph, const EnginePrediction& prediction,
                                              EnginePrecision precision) {
    const auto& layers = prediction.layers;
    const auto inIsland = [&](int i) {
        const PredictedLayer& layer = layers[static_cast<size_t>(i)];
        return isComputeLayer(layer) && layer.precision == precision;
    };
    const LayerLinks links(graph, prediction);
    std::vector<int> parent(layers.size());
    std::iota(parent.begin(), parent.end(), 0);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!inIsland(static_cast<int>(i))) continue;
        for (NodeId n : layers[i].nodes) {
            for (ValueId in : graph.node(n).inputs) {
                std::vector<int> from;
                links.writers(in, from);
                for (int w : from)
                    if (w != static_cast<int>(i) && inIsland(w))
                        parent[static_cast<size_t>(findRoot(parent, w))] = findRoot(parent, static_cast<int>(i));
            }
        }
    }
    std::vector<PrecisionIsland> islands;
    std::vector<int> islandOfRoot(layers.size(), -1);
    std::vector<int> islandOfLayer(layers.size(), -1);
    for (size_t i = 0; i < layers.size(); ++i) {
        if (!inIsland(static_cast<int>(i))) continue;
        int& island = islandOfRoot[static_cast<size_t>(findRoot(parent, static_cast<int>(i)))];
        if (island < 0) {
            island = static_cast<int>(islands.size());
            islands.emplace_back();
        }
        islands[static_cast<size_t>(island)].layers.push_back(i);
        islandOfLayer[i] = island;
    }
    for (size_t k = 0; k < islands.size(); ++k) {
        PrecisionIsland& island = islands[k];
        for (size_t i : island.layers) {
            std::vector<int> from, to;
            for (NodeId n : layers[i].nodes) {
                for (ValueId in : graph.node(n).inputs) links.writers(in, from);
                for (ValueId out : graph.node(n).outputs) links.readers(out, to);
            }
            for (int w : from)
                if (islandOfLayer[static_cast<size_t>(w)] != static_cast<int>(k))
                    island.writers.insert(static_cast<size_t>(w));
            for (int r : to)
                if (islandOfLayer[static_cast<size_t>(r)] != static_cast<int>(k))
                    island.readers.insert(static_cast<size_t>(r));
        }
    }
    return islands;
}

}  // namespace ql
