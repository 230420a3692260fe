#pragma once
// Disjoint sets over the indices 0..n-1 (union-find with path halving): tensors merged into one (a removed Cast's two
// ends), scale groups that share a tensor, predicted and real engine layers matched, connected INT8 regions.
#include <cstddef>
#include <numeric>
#include <vector>

namespace ql {

class DisjointSets {
public:
    explicit DisjointSets(size_t size) : mParent(size) { std::iota(mParent.begin(), mParent.end(), size_t{0}); }

    size_t root(size_t i) {
        while (mParent[i] != i) i = mParent[i] = mParent[mParent[i]];
        return i;
    }
    // `child`'s set joins `parent`'s: both roots, `parent` stays the root.
    void attach(size_t child, size_t parent) { mParent[root(child)] = root(parent); }

private:
    std::vector<size_t> mParent;
};

}  // namespace ql
