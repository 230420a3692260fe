#pragma once
// The body of a control-flow node (If's branches, Loop's and Scan's body) as something to run: the subgraph
// becomes a Graph of its own, whose graph inputs are the body's formal inputs followed by the values it reads
// from enclosing graphs (outer scope, as the ONNX spec lets a subgraph do), and runs on an Executor of its own.
// The kernel that owns it gives the outer-scope values through its inputs (Kernel::outerScopeInputs), and the
// run's observer sees the body's tensors as "<node>/<attribute>/<tensor>" (TensorObserver::observeNested).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/kernel.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"
#include "core/model/subgraph_model.h"  // outerScopeNames

namespace onnx {
class GraphProto;
class ModelProto;
}  // namespace onnx

namespace ql {

class Executor;

class Subgraph {
public:
    // The subgraph in attribute `attribute` of `info.node`; fails when it is missing or not a valid graph.
    static Result<std::unique_ptr<Subgraph>> create(const KernelInit& info, const std::string& attribute);
    ~Subgraph();
    Subgraph(const Subgraph&) = delete;
    Subgraph& operator=(const Subgraph&) = delete;

    // The union of what `subgraphs` read from outer scope, in first-seen order: the owning kernel's
    // outerScopeInputs(), given to it as inputs from `firstSlot` on (after the node's own inputs).
    static std::vector<std::string> bindOuterScope(std::span<Subgraph* const> subgraphs, size_t firstSlot);

    const Graph& graph() const { return mGraph; }
    // The body's own inputs (iteration number, condition, state, scan slices), in order.
    size_t formalInputCount() const { return mFormalInputs.size(); }
    size_t outputCount() const { return mGraph.outputs().size(); }
    // The declared type of output i (Loop and Scan stack their scan outputs; an empty stack takes this dtype).
    const TensorType& outputType(size_t i) const;

    // Runs the body once on its formal inputs, the outer-scope values taken from `ctx`'s inputs; returns its
    // outputs in order. Errors name the subgraph: "Node (If_0) Op (If): in then_branch: ...".
    Result<std::vector<Tensor>> run(const KernelContext& ctx, std::vector<Tensor> formalInputs);

private:
    Subgraph(const Node& node, std::string attribute);
    Status build(const KernelInit& info, const onnx::GraphProto& body);

    const Node& mNode;
    std::string mAttribute;
    std::unique_ptr<onnx::ModelProto> mModel;  // a model around a copy of the body: the Graph points into it
    Graph mGraph;
    std::unique_ptr<Executor> mExecutor;
    std::vector<std::string> mFormalInputs;
    std::vector<std::string> mOuterNames;  // read from outer scope
    std::vector<size_t> mOuterSlots;       // per outer name: the owning kernel's input slot
};

}  // namespace ql
