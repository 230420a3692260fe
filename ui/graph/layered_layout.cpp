#include "ui/graph/layered_layout.h"

#include <algorithm>
#include <numeric>

namespace ql::ui {

namespace {

constexpr int kOrderingSweeps = 4;
constexpr int kPlacementSweeps = 6;
constexpr double kDummyWidth = 2;

// The layout graph: real nodes first, then dummy nodes that carry long edges through the ranks they cross.
struct Layer {
    std::vector<int> rank;
    std::vector<double> width;
    std::vector<std::vector<int>> up;     // neighbours one rank above
    std::vector<std::vector<int>> down;   // neighbours one rank below
    std::vector<std::vector<int>> order;  // per rank, left to right
    std::vector<double> x;                // centre
    std::vector<int> position;            // index within its rank
};

class LayeredLayouter {
public:
    LayeredLayouter(GraphLayout& layout, const LayoutOptions& options) : mLayout(layout), mOptions(options) {}

    void run() {
        const VisibleGraph& g = mLayout.graph;
        mRealCount = static_cast<int>(g.nodes.size());
        findReversedEdges();
        assignRanks();
        buildChains();
        order();
        placeX();
        placeYAndRoute();
        mLayout.algorithm = LayoutAlgorithm::Layered;
    }

private:
    // Edges that close a cycle (between blocks) are laid out reversed. Iterative DFS: no recursion depth limit.
    void findReversedEdges() {
        const VisibleGraph& g = mLayout.graph;
        std::vector<std::vector<int>> out(g.nodes.size());
        for (size_t e = 0; e < g.edges.size(); ++e)
            out[static_cast<size_t>(g.edges[e].from)].push_back(static_cast<int>(e));
        mReversed.assign(g.edges.size(), false);
        std::vector<char> state(g.nodes.size(), 0);  // 0 new, 1 on stack, 2 done
        std::vector<std::pair<int, size_t>> stack;
        for (int start = 0; start < mRealCount; ++start) {
            if (state[static_cast<size_t>(start)] != 0) continue;
            stack.emplace_back(start, 0);
            state[static_cast<size_t>(start)] = 1;
            while (!stack.empty()) {
                auto& [v, next] = stack.back();
                const auto& edges = out[static_cast<size_t>(v)];
                if (next == edges.size()) {
                    state[static_cast<size_t>(v)] = 2;
                    stack.pop_back();
                    continue;
                }
                const int e = edges[next++];
                const int w = g.edges[static_cast<size_t>(e)].to;
                if (state[static_cast<size_t>(w)] == 1) {
                    mReversed[static_cast<size_t>(e)] = true;
                } else if (state[static_cast<size_t>(w)] == 0) {
                    state[static_cast<size_t>(w)] = 1;
                    stack.emplace_back(w, 0);
                }
            }
        }
    }

    std::pair<int, int> directed(size_t e) const {
        const VisibleEdge& edge = mLayout.graph.edges[e];
        return mReversed[e] ? std::pair{edge.to, edge.from} : std::pair{edge.from, edge.to};
    }

    // Longest path from the sources (Kahn order), then sources move down next to their first consumer.
    void assignRanks() {
        const size_t n = static_cast<size_t>(mRealCount);
        std::vector<std::vector<int>> succ(n);
        std::vector<int> indegree(n, 0);
        for (size_t e = 0; e < mLayout.graph.edges.size(); ++e) {
            auto [a, b] = directed(e);
            succ[static_cast<size_t>(a)].push_back(b);
            ++indegree[static_cast<size_t>(b)];
        }
        const std::vector<int> predecessors = indegree;
        mL.rank.assign(n, 0);
        std::vector<int> topo;
        for (size_t v = 0; v < n; ++v) {
            if (indegree[v] == 0) topo.push_back(static_cast<int>(v));
        }
        for (size_t i = 0; i < topo.size(); ++i) {
            const int v = topo[i];
            for (int w : succ[static_cast<size_t>(v)]) {
                mL.rank[static_cast<size_t>(w)] =
                    std::max(mL.rank[static_cast<size_t>(w)], mL.rank[static_cast<size_t>(v)] + 1);
                if (--indegree[static_cast<size_t>(w)] == 0) topo.push_back(w);
            }
        }
        for (int v : topo) {
            if (predecessors[static_cast<size_t>(v)] > 0 || succ[static_cast<size_t>(v)].empty()) continue;
            int lowest = mL.rank[static_cast<size_t>(succ[static_cast<size_t>(v)][0])];
            for (int w : succ[static_cast<size_t>(v)]) lowest = std::min(lowest, mL.rank[static_cast<size_t>(w)]);
            mL.rank[static_cast<size_t>(v)] = lowest - 1;
        }
    }

    int addLayoutNode(int rank, double width) {
        mL.rank.push_back(rank);
        mL.width.push_back(width);
        mL.up.emplace_back();
        mL.down.emplace_back();
        return static_cast<int>(mL.rank.size()) - 1;
    }

    // Each edge becomes a chain from its upper to its lower end with one dummy per rank crossed.
    void buildChains() {
        const VisibleGraph& g = mLayout.graph;
        mL.width.resize(static_cast<size_t>(mRealCount));
        for (int v = 0; v < mRealCount; ++v) mL.width[static_cast<size_t>(v)] = g.nodes[static_cast<size_t>(v)].width;
        mL.up.resize(static_cast<size_t>(mRealCount));
        mL.down.resize(static_cast<size_t>(mRealCount));
        mChains.resize(g.edges.size());
        for (size_t e = 0; e < g.edges.size(); ++e) {
            auto [a, b] = directed(e);
            std::vector<int>& chain = mChains[e];
            chain.push_back(a);
            for (int r = mL.rank[static_cast<size_t>(a)] + 1; r < mL.rank[static_cast<size_t>(b)]; ++r)
                chain.push_back(addLayoutNode(r, kDummyWidth));
            chain.push_back(b);
            for (size_t i = 0; i + 1 < chain.size(); ++i) {
                mL.down[static_cast<size_t>(chain[i])].push_back(chain[i + 1]);
                mL.up[static_cast<size_t>(chain[i + 1])].push_back(chain[i]);
            }
        }
    }

    static double barycenter(const std::vector<int>& neighbours, const std::vector<int>& position, double fallback) {
        if (neighbours.empty()) return fallback;
        double sum = 0;
        for (int w : neighbours) sum += position[static_cast<size_t>(w)];
        return sum / static_cast<double>(neighbours.size());
    }

    void sortRank(std::vector<int>& rank, bool useUp) {
        std::vector<std::pair<double, int>> keyed;
        keyed.reserve(rank.size());
        for (int v : rank) {
            const auto& nb = useUp ? mL.up[static_cast<size_t>(v)] : mL.down[static_cast<size_t>(v)];
            keyed.emplace_back(barycenter(nb, mL.position, mL.position[static_cast<size_t>(v)]), v);
        }
        std::stable_sort(keyed.begin(), keyed.end(), [](auto& l, auto& r) { return l.first < r.first; });
        for (size_t i = 0; i < rank.size(); ++i) {
            rank[i] = keyed[i].second;
            mL.position[static_cast<size_t>(rank[i])] = static_cast<int>(i);
        }
    }

    // Barycenter sweeps, down then up, starting from graph order.
    void order() {
        int minRank = 0;
        int maxRank = 0;
        for (int r : mL.rank) {
            minRank = std::min(minRank, r);
            maxRank = std::max(maxRank, r);
        }
        for (int& r : mL.rank) r -= minRank;
        mL.order.assign(static_cast<size_t>(maxRank - minRank + 1), {});
        mL.position.assign(mL.rank.size(), 0);
        for (size_t v = 0; v < mL.rank.size(); ++v) {
            auto& rank = mL.order[static_cast<size_t>(mL.rank[v])];
            mL.position[v] = static_cast<int>(rank.size());
            rank.push_back(static_cast<int>(v));
        }
        for (int sweep = 0; sweep < kOrderingSweeps; ++sweep) {
            for (size_t r = 1; r < mL.order.size(); ++r) sortRank(mL.order[r], true);
            for (size_t r = mL.order.size(); r-- > 1;) sortRank(mL.order[r - 1], false);
        }
    }

    double gap(int a, int b) const {
        const bool dummy = a >= mRealCount || b >= mRealCount;
        return (mL.width[static_cast<size_t>(a)] + mL.width[static_cast<size_t>(b)]) / 2 +
               (dummy ? mOptions.nodeSeparation / 2 : mOptions.nodeSeparation);
    }

    // Puts one rank as close as possible (least squares) to the desired centres, keeping order and gaps:
    // pool-adjacent-violators on the centres shifted by the cumulative gaps.
    void placeRank(const std::vector<int>& rank, const std::vector<double>& desired) {
        std::vector<double> offset(rank.size(), 0);
        for (size_t i = 1; i < rank.size(); ++i) offset[i] = offset[i - 1] + gap(rank[i - 1], rank[i]);
        struct Pool {
            double sum;
            int count;
            double mean() const { return sum / count; }
        };
        std::vector<Pool> pools;
        for (size_t i = 0; i < rank.size(); ++i) {
            pools.push_back({desired[i] - offset[i], 1});
            while (pools.size() > 1 && pools[pools.size() - 2].mean() > pools.back().mean()) {
                pools[pools.size() - 2].sum += pools.back().sum;
                pools[pools.size() - 2].count += pools.back().count;
                pools.pop_back();
            }
        }
        size_t i = 0;
        for (const Pool& pool : pools) {
            for (int k = 0; k < pool.count; ++k, ++i) mL.x[static_cast<size_t>(rank[i])] = pool.mean() + offset[i];
        }
    }

    double desiredX(int v, int direction) const {
        const auto& up = mL.up[static_cast<size_t>(v)];
        const auto& down = mL.down[static_cast<size_t>(v)];
        double sum = 0;
        size_t count = 0;
        if (direction <= 0) {
            for (int w : up) sum += mL.x[static_cast<size_t>(w)];
            count += up.size();
        }
        if (direction >= 0) {
            for (int w : down) sum += mL.x[static_cast<size_t>(w)];
            count += down.size();
        }
        return count == 0 ? mL.x[static_cast<size_t>(v)] : sum / static_cast<double>(count);
    }

    void placeX() {
        mL.x.assign(mL.rank.size(), 0);
        for (const auto& rank : mL.order) placeRank(rank, std::vector<double>(rank.size(), 0));
        for (int sweep = 0; sweep < kPlacementSweeps; ++sweep) {
            const int direction = sweep == kPlacementSweeps - 1 ? 0 : (sweep % 2 == 0 ? -1 : 1);
            auto place = [&](const std::vector<int>& rank) {
                std::vector<double> desired;
                for (int v : rank) desired.push_back(desiredX(v, direction));
                placeRank(rank, desired);
            };
            if (direction <= 0)
                for (const auto& rank : mL.order) place(rank);
            else
                for (size_t r = mL.order.size(); r-- > 0;) place(mL.order[r]);
        }
    }

    void placeYAndRoute() {
        const VisibleGraph& g = mLayout.graph;
        mRankTop.assign(mL.order.size(), 0);
        mRankHeight.assign(mL.order.size(), 0);
        for (int v = 0; v < mRealCount; ++v) {
            double& h = mRankHeight[static_cast<size_t>(mL.rank[static_cast<size_t>(v)])];
            h = std::max(h, g.nodes[static_cast<size_t>(v)].height);
        }
        for (size_t r = 1; r < mL.order.size(); ++r)
            mRankTop[r] = mRankTop[r - 1] + mRankHeight[r - 1] + mOptions.rankSeparation;
        mRankMinX.assign(mL.order.size(), 0);
        mRankMaxX.assign(mL.order.size(), 0);
        for (size_t r = 0; r < mL.order.size(); ++r) {
            if (mL.order[r].empty()) continue;
            mRankMinX[r] = mRankMaxX[r] = mL.x[static_cast<size_t>(mL.order[r].front())];
            for (int v : mL.order[r]) {
                const double half = mL.width[static_cast<size_t>(v)] / 2;
                mRankMinX[r] = std::min(mRankMinX[r], mL.x[static_cast<size_t>(v)] - half);
                mRankMaxX[r] = std::max(mRankMaxX[r], mL.x[static_cast<size_t>(v)] + half);
            }
        }
        placeColumns(chooseColumns());
        mLayout.nodeRects.resize(static_cast<size_t>(mRealCount));
        for (int v = 0; v < mRealCount; ++v) {
            const VisibleNode& node = g.nodes[static_cast<size_t>(v)];
            const size_t r = static_cast<size_t>(mL.rank[static_cast<size_t>(v)]);
            mLayout.nodeRects[static_cast<size_t>(v)] = {shiftedX(v) - node.width / 2,
                                                         rankTopY(r) + (mRankHeight[r] - node.height) / 2, node.width,
                                                         node.height};
        }
        route();
    }

    // Wrapping (LayoutOptions::wrapWidth): the ranks are cut into runs of about equal height laid out as columns side
    // by side, as many as give the largest zoom that fits the whole into the wrap area. Returns the first rank of
    // each column.
    std::vector<size_t> chooseColumns() const {
        const size_t ranks = mL.order.size();
        if (mOptions.wrapWidth <= 0 || mOptions.wrapHeight <= 0 || ranks < 2) return {0};
        const auto fittedZoom = [&](const std::vector<size_t>& starts) {
            const Extent e = extent(starts);
            return std::min(mOptions.wrapWidth / e.width, mOptions.wrapHeight / e.height);
        };
        std::vector<size_t> best{0};
        double bestZoom = fittedZoom(best);
        if (bestZoom >= 1) return best;  // fits unwrapped
        for (size_t k = 2; k <= ranks; ++k) {
            std::vector<size_t> starts = cutRanks(k);
            const Extent e = extent(starts);
            const double zoom = std::min(mOptions.wrapWidth / e.width, mOptions.wrapHeight / e.height);
            if (zoom > bestZoom) {
                bestZoom = zoom;
                best = std::move(starts);
            }
            // More columns only make it wider: once the width alone allows less than the best, stop.
            if (mOptions.wrapWidth / e.width < bestZoom) break;
        }
        return best;
    }

    // The first ranks of `k` columns of about equal height.
    std::vector<size_t> cutRanks(size_t k) const {
        const double total = mRankTop.back() + mRankHeight.back();
        std::vector<size_t> starts{0};
        for (size_t r = 1; r < mRankTop.size() && starts.size() < k; ++r) {
            if (mRankTop[r] >= total * static_cast<double>(starts.size()) / static_cast<double>(k)) starts.push_back(r);
        }
        return starts;
    }

    struct Extent {
        double width = 0;
        double height = 0;
    };

    struct Column {
        size_t firstRank = 0;
        size_t endRank = 0;
        double minX = 0;
        double maxX = 0;
        double left = 0;  // in the layout
    };

    Column column(size_t firstRank, size_t endRank) const {
        Column c{firstRank, endRank, mRankMinX[firstRank], mRankMaxX[firstRank], 0};
        for (size_t r = firstRank; r < endRank; ++r) {
            c.minX = std::min(c.minX, mRankMinX[r]);
            c.maxX = std::max(c.maxX, mRankMaxX[r]);
        }
        return c;
    }

    double columnHeight(size_t firstRank, size_t endRank) const {
        return mRankTop[endRank - 1] + mRankHeight[endRank - 1] - mRankTop[firstRank];
    }

    // The size of the layout wrapped at `starts`, with the margins above and below the columns that the edges from
    // one column to the next run in.
    Extent extent(const std::vector<size_t>& starts) const {
        Extent e;
        for (size_t c = 0; c < starts.size(); ++c) {
            const size_t end = c + 1 < starts.size() ? starts[c + 1] : mRankTop.size();
            const Column col = column(starts[c], end);
            e.width += col.maxX - col.minX + (c > 0 ? mOptions.columnGap : 0);
            e.height = std::max(e.height, columnHeight(starts[c], end));
        }
        if (starts.size() > 1) e.height += 2 * mOptions.rankSeparation;
        e.width = std::max(e.width, 1.0);
        e.height = std::max(e.height, 1.0);
        return e;
    }

    // Places the columns left to right; each rank's x and y move with its column.
    void placeColumns(const std::vector<size_t>& starts) {
        mColumns.clear();
        mColumnOf.assign(mRankTop.size(), 0);
        const double margin = starts.size() > 1 ? mOptions.rankSeparation : 0;
        double left = 0;
        double height = 0;
        for (size_t c = 0; c < starts.size(); ++c) {
            const size_t end = c + 1 < starts.size() ? starts[c + 1] : mRankTop.size();
            Column col = column(starts[c], end);
            col.left = left;
            left += col.maxX - col.minX + mOptions.columnGap;
            height = std::max(height, columnHeight(starts[c], end));
            for (size_t r = starts[c]; r < end; ++r) mColumnOf[r] = c;
            mColumns.push_back(col);
        }
        mMargin = margin;
        mLayout.columns = static_cast<int>(mColumns.size());
        mLayout.width = left - mOptions.columnGap;
        mLayout.height = mL.order.empty() ? 0 : height + 2 * margin;
    }

    double shiftedX(int v) const {
        const Column& col = mColumns[mColumnOf[static_cast<size_t>(mL.rank[static_cast<size_t>(v)])]];
        return mL.x[static_cast<size_t>(v)] - col.minX + col.left;
    }

    // The top of rank `r` in the layout.
    double rankTopY(size_t r) const { return mRankTop[r] - mRankTop[mColumns[mColumnOf[r]].firstRank] + mMargin; }
    double rankBottomY(size_t r) const { return rankTopY(r) + mRankHeight[r]; }

    // Where a chain leaves or enters a real node: spread along its bottom / top edge in the order of the
    // neighbours' x, so that edges do not all meet in one point.
    double portX(int v, int neighbour, bool bottom) const {
        const auto& nb = bottom ? mL.down[static_cast<size_t>(v)] : mL.up[static_cast<size_t>(v)];
        const LayoutRect& rect = mLayout.nodeRects[static_cast<size_t>(v)];
        if (nb.size() < 2) return rect.center().x;
        size_t index = 0;
        const double nx = mL.x[static_cast<size_t>(neighbour)];
        for (int w : nb)
            index += mL.x[static_cast<size_t>(w)] < nx || (mL.x[static_cast<size_t>(w)] == nx && w < neighbour) ? 1 : 0;
        const double margin = std::min(rect.width / 4, 12.0);
        return rect.x + margin +
               (rect.width - 2 * margin) * static_cast<double>(index) / static_cast<double>(nb.size() - 1);
    }

    int rankOf(int v) const { return mL.rank[static_cast<size_t>(v)]; }

    // An edge from the last rank of column `c` to the first of the next: down under column c, right into the gap,
    // up above the columns and right to `to`. The `slot`-th of `count` such edges keeps to lanes of its own.
    void addCrossing(std::vector<LayoutPoint>& points, size_t c, LayoutPoint to, size_t slot, size_t count) const {
        const double lane = static_cast<double>(slot + 1) / static_cast<double>(count + 1);
        const Column& col = mColumns[c];
        const double under = rankBottomY(col.endRank - 1) + mMargin * lane;
        const double gapX = col.left + (col.maxX - col.minX) + mOptions.columnGap * lane;
        const double above = mMargin * (1 - lane);
        const LayoutPoint from = points.back();
        points.push_back({from.x, under});
        points.push_back({gapX, under});
        points.push_back({gapX, above});
        points.push_back({to.x, above});
    }

    void route() {
        // Lanes for the edges that cross from each column to the next.
        std::vector<size_t> crossings(mColumns.size(), 0);
        for (const std::vector<int>& chain : mChains) {
            for (size_t i = 0; i + 1 < chain.size(); ++i)
                if (mColumnOf[static_cast<size_t>(rankOf(chain[i]))] !=
                    mColumnOf[static_cast<size_t>(rankOf(chain[i + 1]))])
                    ++crossings[mColumnOf[static_cast<size_t>(rankOf(chain[i]))]];
        }
        std::vector<size_t> used(mColumns.size(), 0);
        mLayout.edgeRoutes.resize(mChains.size());
        for (size_t e = 0; e < mChains.size(); ++e) {
            const std::vector<int>& chain = mChains[e];
            EdgeRoute& route = mLayout.edgeRoutes[e];
            const LayoutRect& first = mLayout.nodeRects[static_cast<size_t>(chain.front())];
            route.points.push_back({portX(chain.front(), chain[1], true), first.y + first.height});
            for (size_t i = 1; i < chain.size(); ++i) {
                const int v = chain[i];
                const size_t r = static_cast<size_t>(rankOf(v));
                const bool last = i + 1 == chain.size();
                const LayoutPoint entry =
                    last ? LayoutPoint{portX(v, chain[i - 1], false), mLayout.nodeRects[static_cast<size_t>(v)].y}
                         : LayoutPoint{shiftedX(v), rankTopY(r)};
                const size_t from = mColumnOf[static_cast<size_t>(rankOf(chain[i - 1]))];
                if (from != mColumnOf[r]) addCrossing(route.points, from, entry, used[from]++, crossings[from]);
                route.points.push_back(entry);
                if (!last) route.points.push_back({shiftedX(v), rankBottomY(r)});
            }
            if (mReversed[e]) std::reverse(route.points.begin(), route.points.end());
            route.hasArrowTip = true;
            route.arrowTip = route.points.back();
        }
    }

    GraphLayout& mLayout;
    const LayoutOptions& mOptions;
    int mRealCount = 0;
    std::vector<bool> mReversed;
    std::vector<std::vector<int>> mChains;
    Layer mL;
    std::vector<double> mRankTop;  // unwrapped
    std::vector<double> mRankHeight;
    std::vector<double> mRankMinX;  // the left and right ends of each rank's boxes and edge bends
    std::vector<double> mRankMaxX;
    std::vector<Column> mColumns;
    std::vector<size_t> mColumnOf;  // per rank
    double mMargin = 0;             // above and below the columns, for the edges between columns
};

}  // namespace

GraphLayout layeredLayout(GraphLayout layout, const LayoutOptions& options) {
    if (!layout.graph.nodes.empty()) LayeredLayouter(layout, options).run();
    return layout;
}

}  // namespace ql::ui
