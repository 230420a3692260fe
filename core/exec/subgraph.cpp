#include "core/exec/subgraph.h"

#include <onnx/onnx_pb.h>

#include <optional>

#include "core/exec/executor.h"
#include "core/model/body_path.h"
#include "core/model/external_data.h"
#include "core/model/graph_builder.h"
#include "core/model/subgraph_model.h"

namespace ql {

namespace {

// Shows a body's tensors to the enclosing run's observer under "<node>/<attribute>/<tensor>"; tensors of
// subgraphs nested in the body arrive already prefixed by their own ScopedObserver and gain this prefix too.
class ScopedObserver final : public TensorObserver {
public:
    ScopedObserver(TensorObserver& outer, std::string prefix, const Graph& graph)
        : mOuter(outer), mPrefix(std::move(prefix)), mGraph(graph) {}

    bool wants(ValueId value) const override { return mOuter.wantsNested(path(value)); }
    bool acceptsLayouts() const override { return mOuter.acceptsLayouts(); }
    void observe(const Node& producer, ValueId value, const Tensor& tensor) override {
        mOuter.observeNested(path(value), producer, tensor);
    }
    bool wantsNested(const std::string& inner) const override { return mOuter.wantsNested(mPrefix + inner); }
    void observeNested(const std::string& inner, const Node& producer, const Tensor& tensor) override {
        mOuter.observeNested(mPrefix + inner, producer, tensor);
    }

private:
    std::string path(ValueId value) const { return mPrefix + mGraph.value(value).name; }

    TensorObserver& mOuter;
    std::string mPrefix;
    const Graph& mGraph;
};

}  // namespace

Subgraph::Subgraph(const Node& node, std::string attribute) : mNode(node), mAttribute(std::move(attribute)) {}

Subgraph::~Subgraph() = default;

Result<std::unique_ptr<Subgraph>> Subgraph::create(const KernelInit& info, const std::string& attribute) {
    const onnx::AttributeProto* attr = info.node.attribute(attribute);
    if (!attr || !attr->has_g())
        return invalidModel(nodeErrorMessage(info.node, "the '" + attribute + "' subgraph attribute is missing"));
    std::unique_ptr<Subgraph> subgraph(new Subgraph(info.node, attribute));
    QL_RETURN_IF_ERROR(subgraph->build(info, attr->g()));
    return subgraph;
}

Status Subgraph::build(const KernelInit& info, const onnx::GraphProto& body) {
    mModel = std::make_unique<onnx::ModelProto>(subgraphModelProto(info.graph, body, OuterScopeTypes::Untyped));
    for (const auto& input : body.input()) mFormalInputs.push_back(input.name());
    mOuterNames = outerScopeNames(body);
    auto context = [&](const Status& status) {
        return Status(status.code(), nodeErrorMessage(mNode, "in " + mAttribute + ": " + status.message()));
    };
    ExternalDataResolver noExternalData{std::string()};
    auto built = GraphBuilder::build(*mModel, noExternalData);
    if (!built) return context(built.status());
    mGraph = std::move(built).value();
    auto executor = Executor::create(mGraph);
    if (!executor) return context(executor.status());
    mExecutor = std::move(executor).value();
    return Status::ok();
}

std::vector<std::string> Subgraph::bindOuterScope(std::span<Subgraph* const> subgraphs, size_t firstSlot) {
    std::vector<std::string> names;
    for (Subgraph* subgraph : subgraphs) {
        subgraph->mOuterSlots.clear();
        for (const std::string& name : subgraph->mOuterNames) {
            auto it = std::find(names.begin(), names.end(), name);
            subgraph->mOuterSlots.push_back(firstSlot + static_cast<size_t>(it - names.begin()));
            if (it == names.end()) names.push_back(name);
        }
    }
    return names;
}

const TensorType& Subgraph::outputType(size_t i) const {
    return mGraph.value(mGraph.outputs().at(i)).type;
}

Result<std::vector<Tensor>> Subgraph::run(const KernelContext& ctx, std::vector<Tensor> formalInputs) {
    if (formalInputs.size() != mFormalInputs.size())
        return ctx.fail("the " + mAttribute + " subgraph takes " + std::to_string(mFormalInputs.size()) +
                        " inputs, the node gives it " + std::to_string(formalInputs.size()) +
                        ": fix the model's subgraph inputs");
    NamedTensors inputs;
    for (size_t i = 0; i < formalInputs.size(); ++i) inputs.emplace_back(mFormalInputs[i], std::move(formalInputs[i]));
    for (size_t j = 0; j < mOuterNames.size(); ++j) {
        if (j >= mOuterSlots.size() || !ctx.hasInput(mOuterSlots[j]))
            return ctx.fail("the " + mAttribute + " subgraph reads '" + mOuterNames[j] +
                            "' from the enclosing graph, which this run did not give the node");
        inputs.emplace_back(mOuterNames[j], ctx.input(mOuterSlots[j]));
    }
    RunOptions options;
    std::optional<ScopedObserver> observer;
    if (const RunOptions* outer = ctx.runOptions()) {
        options.stop = outer->stop;
        if (outer->interceptor) options.interceptor = outer->interceptor->nested(mNode, mAttribute, mGraph);
        if (outer->observer) {
            const std::string prefix = bodyPathStep(mNode.name, mAttribute);
            // The body's own inputs (a Loop's state, a Scan's slices) are tensors of the body as well: the layers
            // that read them need their ranges too.
            for (size_t i = 0; i < mFormalInputs.size(); ++i)
                if (outer->observer->wantsNested(prefix + mFormalInputs[i]))
                    outer->observer->observeNested(prefix + mFormalInputs[i], mNode, inputs[i].second);
            observer.emplace(*outer->observer, prefix, mGraph);
            options.observer = &*observer;
        }
    }
    mExecutor->setThreads(ctx.threads());
    auto outputs = mExecutor->run(inputs, options);
    if (!outputs) {
        const Status& status = outputs.status();
        if (status.code() == StatusCode::Cancelled) return status;
        return Status(status.code(), nodeErrorMessage(mNode, "in " + mAttribute + ": " + status.message()));
    }
    std::vector<Tensor> result;
    result.reserve(outputs->size());
    for (auto& [name, tensor] : *outputs) result.push_back(std::move(tensor));
    return result;
}

}  // namespace ql
