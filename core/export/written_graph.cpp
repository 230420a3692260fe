#include "core/export/written_graph.h"

#include <onnx/checker.h>

#include <exception>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace ql {
namespace {

std::string nodeLabel(const onnx::NodeProto& node, int index) {
    std::string label = "node ";
    if (node.name().empty())
        label.append(1, '#').append(std::to_string(index));
    else
        label += "'" + node.name() + "'";
    return label + " (" + node.op_type() + ")";
}

// Every name the nodes of `graph` (and of the bodies inside them) read.
void collectReads(const onnx::GraphProto& graph, std::unordered_set<std::string>& names) {
    for (const auto& node : graph.node()) {
        for (const auto& input : node.input()) names.insert(input);
        for (const auto& attr : node.attribute()) {
            if (attr.has_g()) collectReads(attr.g(), names);
            for (const auto& body : attr.graphs()) collectReads(body, names);
        }
    }
}

// What a node reads: its inputs and, for control flow, the names its bodies read (outer scope: ONNX forbids a
// body to redefine a name of the enclosing graph, so a name produced out here is the one the body means).
std::unordered_set<std::string> readsOf(const onnx::NodeProto& node) {
    std::unordered_set<std::string> names(node.input().begin(), node.input().end());
    for (const auto& attr : node.attribute()) {
        if (attr.has_g()) collectReads(attr.g(), names);
        for (const auto& body : attr.graphs()) collectReads(body, names);
    }
    names.erase("");  // an omitted optional input
    return names;
}

std::unordered_set<std::string> definedByGraph(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> defined;
    for (const auto& input : graph.input()) defined.insert(input.name());
    for (const auto& init : graph.initializer()) defined.insert(init.name());
    return defined;
}

}  // namespace

Status sortNodesTopologically(onnx::GraphProto& graph) {
    const int n = graph.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < n; ++i)
        for (const auto& output : graph.node(i).output())
            if (!output.empty()) producer[output] = i;
    std::vector<int> pending(static_cast<size_t>(n), 0);
    std::vector<std::vector<int>> successors(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        for (const auto& name : readsOf(graph.node(i))) {
            const auto it = producer.find(name);
            if (it == producer.end() || it->second == i) continue;
            successors[static_cast<size_t>(it->second)].push_back(i);
            ++pending[static_cast<size_t>(i)];
        }
    }
    // Kahn's algorithm taking the earliest ready node, so a graph already in order keeps it.
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < n; ++i)
        if (pending[static_cast<size_t>(i)] == 0) ready.push(i);
    google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
    std::vector<bool> placed(static_cast<size_t>(n), false);
    while (!ready.empty()) {
        const int i = ready.top();
        ready.pop();
        placed[static_cast<size_t>(i)] = true;
        *sorted.Add() = graph.node(i);
        for (int next : successors[static_cast<size_t>(i)])
            if (--pending[static_cast<size_t>(next)] == 0) ready.push(next);
    }
    for (int i = 0; i < n; ++i)
        if (!placed[static_cast<size_t>(i)])
            return internalError("the written graph has a cycle through " + nodeLabel(graph.node(i), i));
    graph.mutable_node()->Swap(&sorted);
    return Status::ok();
}

Status checkTopologicalOrder(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> defined = definedByGraph(graph);
    std::unordered_set<std::string> producedLater;
    for (const auto& node : graph.node())
        for (const auto& output : node.output()) producedLater.insert(output);
    for (int i = 0; i < graph.node_size(); ++i) {
        const onnx::NodeProto& node = graph.node(i);
        for (const auto& input : node.input()) {
            if (input.empty() || defined.count(input) != 0) continue;
            return internalError(
                "the written graph is not in topological order: " + nodeLabel(node, i) + " reads '" + input + "', " +
                (producedLater.count(input) != 0 ? "written by a later node" : "which nothing writes"));
        }
        for (const auto& output : node.output()) defined.insert(output);
    }
    return Status::ok();
}

Status checkWrittenModel(const onnx::ModelProto& model, bool sourcePassedChecker) {
    QL_RETURN_IF_ERROR(checkTopologicalOrder(model.graph()));
    if (!sourcePassedChecker) return Status::ok();
    try {
        onnx::checker::check_model(model);
    } catch (const std::exception& e) {
        return internalError(std::string("the written model fails the ONNX checker: ") + e.what());
    }
    return Status::ok();
}

}  // namespace ql
