#pragma once
// One finding per model for a rule that concerns many layers: the layers it concerns, their share of the INT8 MACs
// (the multiply-accumulates of the weighted layers planned INT8, from Graph's LayerCost), and the largest few by name.
// A share tells whether the finding changes a decision: padding a layer that carries 0.1% of the work costs nothing
// measurable, padding layers that carry a third of it does.
#include <optional>
#include <string>
#include <vector>

#include "core/lint/lint_context.h"

namespace ql::rules {

// A layer a rule reports, with the counts that make it so ("C=24, K=6").
struct AffectedLayer {
    const Node* node = nullptr;
    std::string counts;
};

struct MacShare {
    int64_t int8Macs = 0;      // of every weighted layer planned INT8 (> 0)
    int64_t macs = 0;          // of the affected layers
    bool approximate = false;  // some count rests on an unknown dimension (taken as 1)

    double fraction() const { return static_cast<double>(macs) / static_cast<double>(int8Macs); }
};

// The share of the INT8 MACs `layers` carry; nullopt when no INT8 layer's MACs are known (no shapes).
std::optional<MacShare> int8MacShare(const LintContext& context, const std::vector<AffectedLayer>& layers);
// "23.4% of the INT8 MACs", "about 0.03% of ...", "<0.01% of ...", or "an unknown share of the INT8 MACs".
std::string macShareText(const std::optional<MacShare>& share);
// Largest MACs first (graph order among equals): the finding sits on the first, so clicking it selects the layer
// that matters most.
void sortByMacs(std::vector<AffectedLayer>& layers);
// "conv_a (C=24, K=6: 8.1%), conv_b (K=18: 2.0%) and 9 more": the first `shown` of `layers`, each with its share
// of the INT8 MACs where `share` is known and there are several.
std::string largestLayersText(const std::vector<AffectedLayer>& layers, size_t shown,
                              const std::optional<MacShare>& share);
// "1 INT8 layer" / "12 INT8 layers".
std::string layerCountText(size_t count, const std::string& what = "INT8 layer");

}  // namespace ql::rules
