#include "core/quant/output_groups.h"

#include <charconv>

#include "core/model/op_roles.h"

namespace ql {

namespace {

// Whether `value` comes from a Sigmoid through data movement only.
bool fromSigmoid(const Graph& graph, ValueId value) {
    const Node* p = computingProducer(graph, value, 8);
    return p != nullptr && p->opType == "Sigmoid";
}

int64_t channelsOn(const Graph& graph, ValueId value, int64_t axis) {
    const TensorType& type = graph.value(value).type;
    const int64_t rank = static_cast<int64_t>(type.dims.size());
    if (!type.hasShape || axis >= rank) return -1;
    const Dim& d = type.dims[static_cast<size_t>(axis)];
    return d.known() ? d.size : -1;
}

// The channels each input of the Concat adds on `axis`. Shape inference loses some (a YOLO decode reshapes by the
// runtime batch size): one unknown input takes what the output's known size leaves. Empty when that cannot be told.
std::vector<int64_t> inputChannels(const Graph& graph, const Node& concat, int64_t axis) {
    std::vector<int64_t> channels;
    int64_t known = 0, unknown = -1;
    for (size_t i = 0; i < concat.inputs.size(); ++i) {
        const ValueId in = concat.inputs[i];
        channels.push_back(in == kNoId ? -1 : channelsOn(graph, in, axis));
        if (channels.back() > 0) {
            known += channels.back();
        } else {
            if (unknown >= 0) return {};
            unknown = static_cast<int64_t>(i);
        }
    }
    if (unknown < 0) return channels;
    const int64_t total = channelsOn(graph, concat.outputs[0], axis);
    if (total <= known) return {};
    channels[static_cast<size_t>(unknown)] = total - known;
    return channels;
}

// The Concat that produces the first output, directly or behind Identity/Transpose, and its axis in the output's
// coordinates; nullptr when there is none.
const Node* outputConcat(const Graph& graph, int64_t& outputAxis) {
    if (graph.outputs().empty()) return nullptr;
    std::vector<std::vector<int64_t>> perms;  // transposes from the output back to the Concat
    ValueId value = graph.outputs()[0];
    for (int depth = 0; depth < 4; ++depth) {
        const NodeId p = graph.value(value).producer;
        if (p == kNoId) return nullptr;
        const Node& node = graph.node(p);
        if (node.opType == "Concat" && node.domain.empty()) {
            const int64_t rank = static_cast<int64_t>(graph.value(value).type.dims.size());
            int64_t axis = node.intAttribute("axis", 0);
            if (axis < 0) axis += rank;
            for (auto it = perms.rbegin(); it != perms.rend(); ++it) {
                int64_t mapped = -1;
                for (size_t j = 0; j < it->size(); ++j)
                    if ((*it)[j] == axis) mapped = static_cast<int64_t>(j);
                axis = mapped;
            }
            outputAxis = axis;
            return axis >= 0 ? &node : nullptr;
        }
        if (node.opType == "Transpose")
            perms.push_back(node.intsAttribute("perm"));
        else if (node.opType != "Identity")
            return nullptr;
        if (node.inputs.empty()) return nullptr;
        value = node.inputs[0];
    }
    return nullptr;
}

Status badSpec(std::string_view spec, const std::string& why) {
    return invalidArgument("--output-split '" + std::string(spec) + "': " + why +
                           " (expected NAME=BEGIN:END[,NAME=BEGIN:END...], e.g. boxes=0:4,scores=4:84)");
}

bool parseInt(std::string_view text, int64_t& out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<OutputChannelGroup> detectDetectorOutputGroups(const Graph& graph) {
    int64_t axis = -1;
    const Node* concat = outputConcat(graph, axis);
    if (concat == nullptr) return {};
    const int64_t concatAxis = [&] {
        const int64_t a = concat->intAttribute("axis", 0);
        return a >= 0 ? a : a + static_cast<int64_t>(graph.value(concat->outputs[0]).type.dims.size());
    }();
    const std::vector<int64_t> channels = inputChannels(graph, *concat, concatAxis);
    if (channels.empty()) return {};
    std::vector<OutputChannelGroup> groups;
    int64_t begin = 0;
    int boxRuns = 0, scoreRuns = 0;
    bool anyScores = false, lastScores = false;
    for (size_t i = 0; i < concat->inputs.size(); ++i) {
        const bool scores = fromSigmoid(graph, concat->inputs[i]);
        if (groups.empty() || scores != lastScores) {  // a new run of boxes or scores
            const int run = scores ? ++scoreRuns : ++boxRuns;
            const std::string kind = scores ? "scores" : "boxes";
            groups.push_back({run > 1 ? kind + std::to_string(run) : kind, axis, begin, begin});
        }
        anyScores = anyScores || scores;
        lastScores = scores;
        begin += channels[i];
        groups.back().end = begin;
    }
    if (!anyScores || groups.size() < 2) return {};
    return groups;
}

Result<std::vector<OutputChannelGroup>> parseOutputGroups(std::string_view spec, int64_t axis) {
    std::vector<OutputChannelGroup> groups;
    while (!spec.empty()) {
        const size_t comma = spec.find(',');
        const std::string_view item = spec.substr(0, comma);
        spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
        const size_t eq = item.find('='), colon = item.find(':');
        if (eq == std::string_view::npos || eq == 0 || colon == std::string_view::npos || colon < eq)
            return badSpec(item, "a group needs a name and a channel range");
        OutputChannelGroup g{std::string(item.substr(0, eq)), axis, 0, 0};
        if (!parseInt(item.substr(eq + 1, colon - eq - 1), g.begin) || !parseInt(item.substr(colon + 1), g.end))
            return badSpec(item, "the channel range is not two integers");
        if (g.begin < 0 || g.end <= g.begin) return badSpec(item, "the channel range is empty or negative");
        groups.push_back(std::move(g));
    }
    if (groups.empty()) return badSpec(spec, "no group given");
    return groups;
}

Status checkOutputGroups(const Graph& graph, const std::vector<OutputChannelGroup>& groups) {
    if (graph.outputs().empty()) return invalidArgument("--output-split: the model has no output");
    const Value& output = graph.value(graph.outputs()[0]);
    if (!output.type.hasShape) return Status::ok();
    const int64_t rank = static_cast<int64_t>(output.type.dims.size());
    for (const OutputChannelGroup& g : groups) {
        const int64_t axis = g.axis < 0 ? g.axis + rank : g.axis;
        if (axis < 0 || axis >= rank)
            return invalidArgument("--output-axis " + std::to_string(g.axis) + ": the output '" + output.name +
                                   "' has rank " + std::to_string(rank));
        const Dim& d = output.type.dims[static_cast<size_t>(axis)];
        if (d.known() && g.end > d.size)
            return invalidArgument("--output-split " + g.name + "=" + std::to_string(g.begin) + ":" +
                                   std::to_string(g.end) + ": the output '" + output.name + "' has " +
                                   std::to_string(d.size) + " channels on axis " + std::to_string(g.axis));
    }
    return Status::ok();
}

OutputGroupAccumulator::OutputGroupAccumulator(std::vector<OutputChannelGroup> groups)
    : mGroups(std::move(groups)), mErrors(mGroups.size()) {}

void OutputGroupAccumulator::add(const Tensor& fp32, const Tensor& quantized) {
    if (mGroups.empty() || fp32.shape() != quantized.shape() || fp32.rank() == 0) return;
    const std::vector<float> a = fp32.toFloats(), b = quantized.toFloats();
    const int64_t rank = fp32.rank();
    for (size_t g = 0; g < mGroups.size(); ++g) {
        const OutputChannelGroup& group = mGroups[g];
        const int64_t axis = group.axis < 0 ? group.axis + rank : group.axis;
        if (axis < 0 || axis >= rank || group.end > fp32.dim(axis)) continue;
        int64_t outer = 1, inner = 1;
        for (int64_t d = 0; d < axis; ++d) outer *= fp32.dim(d);
        for (int64_t d = axis + 1; d < rank; ++d) inner *= fp32.dim(d);
        const int64_t channels = fp32.dim(axis);
        std::vector<float> ra, rb;
        ra.reserve(static_cast<size_t>(outer * (group.end - group.begin) * inner));
        rb.reserve(ra.capacity());
        for (int64_t o = 0; o < outer; ++o) {
            const size_t first = static_cast<size_t>((o * channels + group.begin) * inner);
            const size_t last = static_cast<size_t>((o * channels + group.end) * inner);
            ra.insert(ra.end(), a.begin() + static_cast<ptrdiff_t>(first), a.begin() + static_cast<ptrdiff_t>(last));
            rb.insert(rb.end(), b.begin() + static_cast<ptrdiff_t>(first), b.begin() + static_cast<ptrdiff_t>(last));
        }
        mErrors[g].add(ra, rb);
    }
}

std::vector<OutputGroupError> OutputGroupAccumulator::result() const {
    std::vector<OutputGroupError> out;
    for (size_t g = 0; g < mGroups.size(); ++g) out.push_back({mGroups[g], mErrors[g].metrics()});
    return out;
}

}  // namespace ql
