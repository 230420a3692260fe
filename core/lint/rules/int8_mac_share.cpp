#include "core/lint/rules/int8_mac_share.h"

#include <algorithm>
#include <cstdio>

namespace ql::rules {

namespace {

// "27.1%", "0.03%", "<0.01%"
std::string percentText(double fraction) {
    const double percent = 100.0 * fraction;
    char text[32];
    if (percent > 0 && percent < 0.01)
        std::snprintf(text, sizeof(text), "<0.01%%");
    else
        std::snprintf(text, sizeof(text), percent < 1 ? "%.2f%%" : "%.1f%%", percent);
    return text;
}

}  // namespace

std::optional<MacShare> int8MacShare(const LintContext& context, const std::vector<AffectedLayer>& layers) {
    MacShare share;
    for (const Node& node : context.graph().nodes()) {
        if (!isWeightedLayer(node) || !context.int8Planned(node.id)) continue;
        share.int8Macs += node.cost.macs;
        share.approximate = share.approximate || node.cost.approximate;
    }
    if (share.int8Macs <= 0) return std::nullopt;
    for (const AffectedLayer& layer : layers) share.macs += layer.node->cost.macs;
    return share;
}

std::string macShareText(const std::optional<MacShare>& share) {
    if (!share) return "an unknown share of the INT8 MACs (layer shapes unknown)";
    return std::string(share->approximate ? "about " : "") + percentText(share->fraction()) + " of the INT8 MACs";
}

void sortByMacs(std::vector<AffectedLayer>& layers) {
    std::stable_sort(layers.begin(), layers.end(), [](const AffectedLayer& a, const AffectedLayer& b) {
        return a.node->cost.macs > b.node->cost.macs;
    });
}

std::string largestLayersText(const std::vector<AffectedLayer>& layers, size_t shown,
                              const std::optional<MacShare>& share) {
    std::string text;
    const size_t listed = std::min(shown, layers.size());
    for (size_t i = 0; i < listed; ++i) {
        if (i > 0) text += (i + 1 == listed && listed == layers.size()) ? " and " : ", ";
        const Node& node = *layers[i].node;
        text += node.name + " (" + layers[i].counts;
        if (share && layers.size() > 1)  // a single layer's share is the finding's
            text += ": " + percentText(static_cast<double>(node.cost.macs) / static_cast<double>(share->int8Macs));
        text += ")";
    }
    if (listed < layers.size()) text += lintText(" and ", layers.size() - listed, " more");
    return text;
}

std::string layerCountText(size_t count, const std::string& what) {
    return lintText(count, " ", what, count == 1 ? "" : "s");
}

}  // namespace ql::rules
