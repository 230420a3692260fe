#include "core/quant/body_analysis.h"

#include "core/model/body_path.h"
#include "core/model/subgraph_model.h"

namespace ql {

namespace {

bool isFloat(const Tensor& t) {
    return !t.empty() && t.dtype() == DataType::Float;
}

// Appends the measured outputs of the nodes of the body `attribute` of `owner` (a node of `graph`, whose bodies' paths
// start with `prefix`), a nested body's right after its node, with the precisions of `plan`'s plan of the body (none:
// the body runs float).
void collectBody(const Graph& graph, const Node& owner, const std::string& attribute, const PrecisionPlan* plan,
                 const std::string& prefix, const std::map<std::string, ErrorAccumulator>& errors,
                 std::vector<BodyLayerError>& out) {
    auto body = buildSubgraphModel(graph, owner, attribute);
    if (!body) return;  // not run either: the executor builds it the same way
    const std::string at = prefix + bodyPathStep(owner.name, attribute);
    const PrecisionPlan* bodyPlan = plan ? plan->body(owner.name, attribute) : nullptr;
    const Graph& bodyGraph = body->graph;
    for (const Node& node : bodyGraph.nodes()) {
        for (ValueId output : node.outputs) {
            if (output == kNoId) continue;
            const std::string& name = bodyGraph.value(output).name;
            const auto it = errors.find(at + name);
            if (it == errors.end()) continue;
            const bool planned = bodyPlan && static_cast<size_t>(node.id) < bodyPlan->size();
            out.push_back({at, node.name, node.opType, name, planned ? bodyPlan->effective(node.id) : Precision::Fp32,
                           it->second.metrics()});
        }
        for (const SubgraphInfo& subgraph : node.subgraphs)
            collectBody(bodyGraph, node, subgraph.attribute, bodyPlan, at, errors, out);
    }
}

// The same for every control-flow node of `graph`, in graph order.
void collect(const Graph& graph, const PrecisionPlan* plan, const std::string& prefix,
             const std::map<std::string, ErrorAccumulator>& errors, std::vector<BodyLayerError>& out) {
    for (const Node& owner : graph.nodes())
        for (const SubgraphInfo& subgraph : owner.subgraphs)
            collectBody(graph, owner, subgraph.attribute, plan, prefix, errors, out);
}

}  // namespace

void BodyTensorErrors::keep(const std::string& path, const Tensor& fp32) {
    if (!isFloat(fp32)) return;
    // Once over the budget, nothing more this batch: a path's later iterations must not pair with earlier ones.
    mKeptBytes += fp32.byteSize();
    if (mKeptBytes > kMaxKeptBytes) return;
    mKept[path].push_back(fp32);
}

void BodyTensorErrors::compare(const std::string& path, const Tensor& quantized) {
    const auto it = mKept.find(path);
    if (it == mKept.end() || it->second.empty() || !isFloat(quantized)) return;
    mErrors[path].add(it->second.front(), quantized);
    it->second.pop_front();
}

void BodyTensorErrors::add(const std::string& path, const Tensor& fp32, const Tensor& isolated) {
    if (isFloat(fp32) && isFloat(isolated)) mErrors[path].add(fp32, isolated);
}

std::vector<BodyLayerError> BodyTensorErrors::layers(const Graph& graph, const PrecisionPlan& plan) const {
    std::vector<BodyLayerError> out;
    if (!mErrors.empty()) collect(graph, &plan, "", mErrors, out);
    return out;
}

}  // namespace ql
