// trt-int8-channel-alignment: INT8 tensor-core kernels want channel counts that are multiples of 16. One finding per
// model: FP16 for the misaligned layers too small for INT8 to pay off (a warning only when they carry a significant
// share of the INT8 work), the aligned counts for the others, which INT8 still runs faster.
#include <set>

#include "core/lint/lint_context.h"
#include "core/lint/rules/int8_mac_share.h"
#include "core/lint/rules/layer_channels.h"
#include "core/lint/rules/rules.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-channel-alignment", Severity::Warning, kAllTrtVersions,
    "TensorRT's INT8 tensor-core kernels take channels in blocks of 16 (FP16 ones in blocks of 8), so a convolution or "
    "matrix multiply whose input channels (C) or output channels (K) are not a multiple of 16 is padded. It still "
    "builds and runs. The rule fires once per model and sorts the misaligned layers by the threshold "
    "trt-int8-small-layer uses: a layer with fewer than 16 channels on a side is too small for INT8 to pay off (Model "
    "Optimizer leaves it FP16; at 8 or fewer, padding to 16 doubles its INT8 work where FP16 pads to 8, which cancels "
    "INT8's twice-as-fast tensor cores), so the fix is to keep it FP16; a layer with 16 or more on both sides is "
    "padded by less than that (24 -> 32 adds a third), so INT8 stays faster, and the fix, for a model you train "
    "yourself, is the next multiple of 16. The finding sits on the largest small layer (else the largest misaligned "
    "one) and says how many layers are misaligned, the share of the INT8 multiply-accumulates (MACs) they carry, the "
    "share the small ones carry, the largest of each by name with their C and K, and the counts that would align "
    "(not the output channels of a layer that computes a model output: the task sets those). It is a warning when "
    "the small layers carry 10% or more of the INT8 MACs (their precision then shows in the latency), else info: a "
    "10-class classifier head, or misaligned layers that INT8 still runs faster. It stays silent when every checked "
    "count is a multiple of 16, and it does not check: the input channels of a first layer of 1 to 4 channels "
    "(grayscale, RGB, RGBA, RGB + depth, through preprocessing or not) or of any layer that reads a model input "
    "directly, which TensorRT pads to a group of 4 (its INT8 CHW4 format) and NVIDIA's placement quantizes anyway; a "
    "MatMul of two computed tensors (attention's Q x K^T, P x V), whose sizes are sequence lengths and head sizes, "
    "which trt-int8-attention-shape checks; a matrix-vector product (M or N = 1), which trt-int8-gemv reports; and "
    "grouped or depthwise convolutions, which trt-grouped-conv-int8-alignment and trt-int8-small-layer check.",
    "NVIDIA TensorRT Engine Explorer (TREx) linters: \"INT8 convolution ... C and K divisible by 16\"; NVIDIA Model "
    "Optimizer graph_utils.py find_nodes_from_convs_to_exclude (input and output channels >= 16; the first conv is "
    "kept INT8 whatever its input channels); TensorRT API nvinfer1::TensorFormat::kCHW4 (INT8, channels padded to a "
    "multiple of 4); NVIDIA/TensorRT#3876 (FP16 formats \"channel % 8 == 0\"); NVIDIA Turing architecture whitepaper "
    "(INT8 tensor cores at twice the FP16 rate)"};

// The share of the INT8 MACs from which the small layers are worth a decision (a warning), as printed and as a
// fraction.
constexpr int kSignificantPercent = 10;
constexpr double kSignificantShare = kSignificantPercent / 100.0;
// How many layers the message names per group, and how many aligned counts the fix lists.
constexpr size_t kLayersShown = 3;
constexpr size_t kAlignedCountsShown = 8;

int64_t nextMultipleOf16(int64_t count) {
    return (count + 15) / 16 * 16;
}

// "6 -> 16, 24 -> 32 and 42 -> 48"
std::string alignedCountsText(const std::set<int64_t>& counts) {
    std::string text;
    size_t i = 0;
    for (const int64_t count : counts) {
        if (i == kAlignedCountsShown) return text + lintText(" and ", counts.size() - i, " more");
        if (i > 0) text += i + 1 == counts.size() ? " and " : ", ";
        text += lintText(count, " -> ", nextMultipleOf16(count));
        ++i;
    }
    return text;
}

// "10" or "1, 2 and 6"
std::string countsText(const std::set<int64_t>& counts) {
    std::string text;
    size_t i = 0;
    for (const int64_t count : counts) {
        if (i > 0) text += i + 1 == counts.size() ? " and " : ", ";
        text += std::to_string(count);
        ++i;
    }
    return text;
}

struct Misaligned {
    std::vector<AffectedLayer> small;   // a count under kInt8MinChannels: INT8 does not pay off
    std::vector<AffectedLayer> padded;  // every count 16 or more: padded by less than INT8's speed-up over FP16
    std::set<int64_t> chosenCounts;     // misaligned counts the architecture chose: a user who trains it can change
    std::set<int64_t> taskCounts;       // misaligned output counts of layers that compute a model output (classes)

    size_t count() const { return small.size() + padded.size(); }
    std::vector<AffectedLayer> all() const {
        std::vector<AffectedLayer> layers = small;
        layers.insert(layers.end(), padded.begin(), padded.end());
        return layers;
    }
};

Misaligned misalignedLayers(const LintContext& context) {
    Misaligned found;
    for (const Node& node : context.graph().nodes()) {
        if (!context.int8Planned(node.id)) continue;
        const auto ch = layerChannels(context, node);
        if (!ch || ch->group != 1 || isMatrixVectorProduct(context, node)) continue;
        const bool oddC = ch->checksC() && ch->c % 16 != 0;
        const bool oddK = ch->k >= 0 && ch->k % 16 != 0;
        if (!oddC && !oddK) continue;
        std::string counts;
        if (oddC) {
            counts = lintText("C=", ch->c);
            found.chosenCounts.insert(ch->c);
        }
        if (oddK) {
            counts += lintText(oddC ? ", " : "", "K=", ch->k);
            // A count some chosen layer has stays chosen whatever this one computes: no walk to the outputs.
            const bool chosen = found.chosenCounts.contains(ch->k) || !computesModelOutput(context, node);
            (chosen ? found.chosenCounts : found.taskCounts).insert(ch->k);
        }
        (ch->small() ? found.small : found.padded).push_back({&node, counts});
    }
    for (const int64_t count : found.chosenCounts) found.taskCounts.erase(count);
    sortByMacs(found.small);
    sortByMacs(found.padded);
    return found;
}

// How many misaligned layers, their share; then the small ones (the decision) and the others, each by their largest.
std::string messageOf(const LintContext& context, const Misaligned& found, bool significant) {
    const size_t n = found.count();
    const auto share = int8MacShare(context, found.all());
    std::string message = lintText(layerCountText(n),
                                   n == 1 ? " has a channel count that is not a multiple of 16 and carries "
                                          : " have channel counts that are not multiples of 16 and carry ",
                                   macShareText(share));
    if (!found.small.empty()) {
        const auto smallShare = int8MacShare(context, found.small);
        const std::string who = found.small.size() == n
                                    ? (n == 1 ? "It has" : "All have")
                                    : lintText(found.small.size(), " of them, carrying ", macShareText(smallShare),
                                               found.small.size() == 1 ? ", has" : ", have");
        message +=
            lintText(". ", who, " fewer than ", kInt8MinChannels, " channels on a side, too few for INT8 to pay ",
                     "off (TensorRT pads to 16; Model Optimizer leaves such layers FP16): ",
                     largestLayersText(found.small, kLayersShown, share));
    }
    if (!found.padded.empty()) {
        const std::string who = found.small.empty() ? (n == 1 ? "It is" : "They are")
                                                    : lintText("The other ", found.padded.size(),
                                                               found.padded.size() == 1 ? " is" : " are");
        message +=
            lintText(". ", who, " padded to the next multiple of 16, by less than INT8's speed-up over FP16 ",
                     "(which pads to 8), so INT8 stays faster: ", largestLayersText(found.padded, kLayersShown, share));
    }
    if (!share) return message + ". With the share of the work unknown, this is advice, not a warning";
    if (!found.small.empty() && !significant)
        message +=
            lintText(". At under ", kSignificantPercent, "% of the INT8 MACs, ",
                     found.small.size() == 1 ? "that layer changes" : "those layers change",
                     " little overall, whichever precision ", found.small.size() == 1 ? "it runs" : "they run", " in");
    return message;
}

// FP16 for the small layers, which works on any model; then what a user who trains the model can change: the counts
// the architecture chose, not those of its outputs.
std::string fixOf(const LintContext& context, const Misaligned& found) {
    const size_t smallCount = found.small.size();
    const bool explicitQdq = context.explicitQuantization();
    std::string fix =
        smallCount == 0 ? lintText("keep ", found.count() == 1 ? "it" : "them", " INT8 (still faster than FP16)")
        : smallCount == 1
            ? lintText("keep ", found.small.front().node->name, " FP16 (",
                       explicitQdq ? "remove the Q/DQ on its inputs" : "plan it FP16", ")")
            : lintText("keep the ", smallCount, " layers with fewer than ", kInt8MinChannels, " channels FP16 (",
                       explicitQdq ? "remove the Q/DQ on their inputs" : "plan them FP16", ")");
    const std::string task =
        countsText(found.taskCounts) +
        (found.taskCounts.size() == 1 ? " is a model output's channel count" : " are model outputs' channel counts") +
        ", set by the task";
    if (found.chosenCounts.empty()) return fix + "; " + task;
    fix += "; where the model is your own, channel counts that align: " + alignedCountsText(found.chosenCounts);
    return found.taskCounts.empty() ? fix : fix + " (" + task + ")";
}

class Int8ChannelAlignmentRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Misaligned found = misalignedLayers(context);
        if (found.count() == 0) return;
        const auto smallShare = int8MacShare(context, found.small);
        const bool significant = !found.small.empty() && smallShare && smallShare->fraction() >= kSignificantShare;
        // On the largest layer the decision concerns: the largest small one, else the largest of all.
        const Node& on = *(found.small.empty() ? found.padded : found.small).front().node;
        findings.push_back(context.finding(kInfo, on, significant ? Severity::Warning : Severity::Info,
                                           messageOf(context, found, significant), fixOf(context, found)));
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8ChannelAlignmentRule() {
    return std::make_unique<Int8ChannelAlignmentRule>();
}

}  // namespace ql::rules
