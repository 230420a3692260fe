#include "core/export/constant_folding.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/executor.h"
#include "core/exec/tensor_proto.h"
#include "core/export/proto_graph.h"
#include "core/model/model.h"
#include "core/model/op_roles.h"
#include "core/model/tensor_data.h"

namespace ql {
namespace {

// Bigger results are kept as nodes unless their inputs are at least as big.
constexpr size_t kMaxGrownBytes = size_t{16} << 20;

bool foldableOp(const onnx::NodeProto& node) {
    if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
    for (const auto& attr : node.attribute())
        if (attr.has_g() || attr.graphs_size() > 0) return false;
    return !keptByConstantFolding(node.op_type());
}

// Initializers that are constants (not also graph inputs) by name, built once and kept current as folded
// results are added, so a whole pass is linear in the graph's size.
class ConstantIndex {
public:
    explicit ConstantIndex(onnx::GraphProto& graph) : mGraph(graph) {
        for (const auto& input : graph.input()) mOverridable.insert(input.name());
        for (const auto& init : graph.initializer()) mConstants[init.name()] = &init;
    }
    const onnx::TensorProto* find(const std::string& name) const {
        if (name.empty() || mOverridable.count(name) != 0) return nullptr;
        const auto it = mConstants.find(name);
        return it == mConstants.end() ? nullptr : it->second;
    }
    void add(onnx::TensorProto tensor) {
        auto* added = mGraph.add_initializer();
        *added = std::move(tensor);
        mConstants[added->name()] = added;
    }

private:
    onnx::GraphProto& mGraph;
    std::unordered_set<std::string> mOverridable;
    std::unordered_map<std::string, const onnx::TensorProto*> mConstants;
};

// The node's distinct constant inputs (omitted optional inputs skipped), or empty when one is not constant.
std::vector<const onnx::TensorProto*> constantInputs(const ConstantIndex& constants, const onnx::NodeProto& node) {
    std::vector<const onnx::TensorProto*> inputs;
    for (const auto& name : node.input()) {
        if (name.empty()) continue;
        const auto* tensor = constants.find(name);
        if (!tensor) return {};
        if (std::find(inputs.begin(), inputs.end(), tensor) == inputs.end()) inputs.push_back(tensor);
    }
    return inputs;
}

// Runs one node on its constant inputs in a one-node model with the model's opsets.
Result<std::vector<onnx::TensorProto>> evaluate(const onnx::ModelProto& model, const onnx::NodeProto& node,
                                                const std::vector<const onnx::TensorProto*>& inputs) {
    onnx::ModelProto single;
    single.set_ir_version(model.ir_version());
    *single.mutable_opset_import() = model.opset_import();
    auto* graph = single.mutable_graph();
    graph->set_name("fold");
    *graph->add_node() = node;
    for (const auto* input : inputs) *graph->add_initializer() = *input;
    for (const auto& output : node.output())
        if (!output.empty()) graph->add_output()->set_name(output);
    const std::string bytes = single.SerializeAsString();
    QL_ASSIGN_OR_RETURN(auto loaded, Model::loadFromBytes(std::as_bytes(std::span(bytes.data(), bytes.size())),
                                                          "constant folding", {.runChecker = false}));
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(loaded->graph()));
    QL_ASSIGN_OR_RETURN(auto outputs, executor->run({}));
    std::vector<onnx::TensorProto> tensors;
    for (const auto& [name, tensor] : outputs) tensors.push_back(tensorToProto(name, tensor));
    return tensors;
}

size_t byteSize(const onnx::TensorProto& tensor) {
    return static_cast<size_t>(tensorElementCount(tensor)) * dataTypeSize(dataTypeFromOnnx(tensor.data_type()));
}

// Adds the node's outputs as initializers when it is constant; returns whether it did (the caller drops it).
Result<bool> foldNode(const onnx::ModelProto& model, const onnx::NodeProto& node, ConstantIndex& constants,
                      std::vector<PreparationStep>& steps) {
    const auto& graph = model.graph();
    for (const auto& output : node.output())
        if (isGraphOutput(graph, output)) return false;  // keep the model's outputs computed by nodes
    std::vector<onnx::TensorProto> results;
    if (node.op_type() == "Constant" && node.domain().empty()) {
        auto tensor = constantNodeTensor(node);
        if (!tensor) return false;  // e.g. a sparse value: left as it is
        tensor->set_name(node.output(0));
        results.push_back(std::move(tensor).value());
    } else {
        if (!foldableOp(node) || node.input_size() == 0) return false;
        const auto inputs = constantInputs(constants, node);
        if (inputs.empty()) return false;
        auto evaluated = evaluate(model, node, inputs);
        if (!evaluated) return false;  // an op the executor cannot run stays a node
        size_t inBytes = 0, outBytes = 0;
        for (const auto* input : inputs) inBytes += byteSize(*input);
        for (const auto& tensor : *evaluated) outBytes += byteSize(tensor);
        if (outBytes > kMaxGrownBytes && outBytes > inBytes) return false;
        results = std::move(evaluated).value();
    }
    const std::string name = node.name().empty() ? node.op_type() + " -> " + node.output(0) : node.name();
    steps.push_back({"fold-constant", name, std::to_string(results.size()) + " output(s) became initializers"});
    for (auto& tensor : results) constants.add(std::move(tensor));
    return true;
}

}  // namespace

Status foldConstants(onnx::ModelProto& model, std::vector<PreparationStep>& steps) {
    ConstantIndex constants(*model.mutable_graph());
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (const auto& node : model.graph().node()) {
        QL_ASSIGN_OR_RETURN(bool folded, foldNode(model, node, constants, steps));
        if (!folded) *kept.Add() = node;
    }
    model.mutable_graph()->mutable_node()->Swap(&kept);
    return Status::ok();
}

}  // namespace ql
