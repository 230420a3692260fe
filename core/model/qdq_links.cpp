// Recognises QuantizeLinear -> DequantizeLinear pairs (and lone DequantizeLinear on quantized weights) and
// links each to the layer input it feeds, looking through shape-only ops (e.g. DQ -> Transpose -> MatMul).
#include <onnx/onnx_pb.h>

#include <set>

#include "core/model/constant_values.h"
#include "core/model/graph_builder.h"

namespace ql {

namespace {

bool isOp(const Node& node, const char* op) {
    return node.opType == op && node.domain.empty();
}

bool isPassThrough(const Node& node) {
    static const std::set<std::string> ops = {"Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"};
    return node.domain.empty() && ops.count(node.opType) > 0;
}

QuantParams readParams(const Graph& graph, const Node& dq, const Node* q, bool& known) {
    QuantParams params;
    params.axis = dq.intAttribute("axis", 1);
    const ValueId scale = dq.inputs.size() > 1 ? dq.inputs[1] : kNoId;
    const ValueId zeroPoint = dq.inputs.size() > 2 ? dq.inputs[2] : kNoId;
    auto scales = constantFloats(graph, scale);
    known = scales.has_value();
    if (scales) params.scales = std::move(*scales);
    if (zeroPoint != kNoId) {
        if (auto zps = constantInt64s(graph, zeroPoint))
            params.zeroPoints = std::move(*zps);
        else
            known = false;
        params.quantType = constantDataType(graph, zeroPoint);
    } else if (q == nullptr) {
        params.quantType = constantDataType(graph, dq.inputs[0]);
    }
    if (params.quantType == DataType::Undefined) params.quantType = DataType::UInt8;
    return params;
}

}  // namespace

void linkQdqPairs(Graph& graph) {
    for (const Node& dq : graph.nodes()) {
        if (!isOp(dq, "DequantizeLinear") || dq.inputs.empty() || dq.inputs[0] == kNoId || dq.outputs.empty() ||
            dq.outputs[0] == kNoId)
            continue;
        QdqLink link;
        link.dequantize = dq.id;
        const Value& quantized = graph.value(dq.inputs[0]);
        const Node* q = nullptr;
        if (quantized.producer != kNoId && isOp(graph.node(quantized.producer), "QuantizeLinear")) {
            q = &graph.node(quantized.producer);
            link.quantize = q->id;
            link.source = q->inputs.empty() ? kNoId : q->inputs[0];
        } else {
            link.source = dq.inputs[0];
        }
        link.isWeight = link.source != kNoId && isConstant(graph, link.source);
        link.params = readParams(graph, dq, q, link.paramsKnown);

        // Follow single-consumer shape-only ops to the layer that uses the tensor.
        std::vector<std::pair<NodeId, ValueId>> frontier;
        for (NodeId consumer : graph.value(dq.outputs[0]).consumers) frontier.emplace_back(consumer, dq.outputs[0]);
        if (frontier.empty()) graph.mQdqLinks.push_back(link);
        while (!frontier.empty()) {
            auto [consumerId, via] = frontier.back();
            frontier.pop_back();
            const Node& consumer = graph.node(consumerId);
            if (isPassThrough(consumer) && !consumer.outputs.empty() && consumer.outputs[0] != kNoId &&
                graph.value(consumer.outputs[0]).consumers.size() == 1) {
                frontier.emplace_back(graph.value(consumer.outputs[0]).consumers[0], consumer.outputs[0]);
                continue;
            }
            for (size_t slot = 0; slot < consumer.inputs.size(); ++slot) {
                if (consumer.inputs[slot] != via) continue;
                QdqLink l = link;
                l.layer = consumerId;
                l.layerInput = static_cast<int32_t>(slot);
                graph.mQdqLinks.push_back(std::move(l));
            }
        }
    }
}

}  // namespace ql
