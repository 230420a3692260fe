#pragma once
// Runs a Graph on CPU. Built once per graph (kernels looked up and initialised, weights wrapped without
// copying, the last consumer of every value computed), then run on batches. Not re-entrant: one run at a
// time per Executor.
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/common/status.h"
#include "core/exec/kernel.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Sees the tensors nodes produce: observe() is called for every value wants() accepts (by default all of
// them), with a plain row-major tensor unless acceptsLayouts(). Keeping a copy of the Tensor keeps its storage alive;
// the executor frees its own reference after the value's last consumer.
class TensorObserver {
public:
    virtual ~TensorObserver() = default;
    virtual void observe(const Node& producer, ValueId value, const Tensor& tensor) = 0;
    // The executor fuses a Conv with the activations / Add after it (see core/exec/fusion.h); the tensors
    // between them are then never materialised. A fused group whose hidden tensors the observer wants runs
    // node by node instead, so answering false for values it ignores lets a run keep the fused speed.
    virtual bool wants(ValueId value) const {
        (void)value;
        return true;
    }
    // True when observe() also takes tensors in a oneDNN layout (Tensor::isPlain() false), e.g. statistics
    // that do not depend on element order; the executor then skips the reorder to plain for them.
    virtual bool acceptsLayouts() const { return false; }
    // Tensors produced inside the subgraphs of control-flow nodes (If, Loop, Scan), named by where they are: the
    // node, the subgraph attribute and the tensor, "If_0/then_branch/x", "Loop_1/body/If_2/else_branch/y", and the
    // body's own inputs as it receives them (a Loop's iteration number, condition and state, a Scan's slices; the
    // producer is then the control-flow node). A Loop or Scan body shows its tensors once per iteration, under the
    // same path. By default none are wanted.
    virtual bool wantsNested(const std::string& path) const {
        (void)path;
        return false;
    }
    virtual void observeNested(const std::string& path, const Node& producer, const Tensor& tensor) {
        (void)path, (void)producer, (void)tensor;
    }
};

// Lets a caller change what a node sees and produces (quantization simulation: quantize-dequantize the
// inputs of INT8 layers, round FP16 layers to half). The nodes it intercepts run on their own, with plain
// tensors, between beforeNode and afterNode; the nodes it provides are not run, their outputs are given; the
// others run as without an interceptor (fused groups, oneDNN layouts), unless a group mixes them.
class NodeInterceptor {
public:
    virtual ~NodeInterceptor() = default;
    // By default every node.
    virtual bool intercepts(const Node& node) const {
        (void)node;
        return true;
    }
    // `inputs[i]` is empty for an omitted optional input; replace entries to change what the kernel sees.
    virtual Status beforeNode(const Node& node, std::vector<Tensor>& inputs) = 0;
    virtual Status afterNode(const Node& node, std::vector<Tensor>& outputs) = 0;
    // Nodes whose outputs the caller supplies (providedValue) instead of running them: a run that recomputes only
    // what a change affects, from activations kept earlier. By default none.
    virtual bool provides(const Node& node) const {
        (void)node;
        return false;
    }
    virtual Tensor providedValue(ValueId value) const {
        (void)value;
        return {};
    }
    // The interceptor of the body in attribute `attribute` of control-flow node `node` (If, Loop, Scan), whose graph
    // the run builds as `body`, or null to run the body as it is (the default). It must outlive the body's run.
    virtual NodeInterceptor* nested(const Node& node, const std::string& attribute, const Graph& body) {
        (void)node, (void)attribute, (void)body;
        return nullptr;
    }
};

struct ExecutorOptions {
    int threads = 1;
    // Fuse Conv + activations / Add and keep tensors in oneDNN layouts between convolutions. Off: every node
    // runs on its own with plain tensors (a reference for tests).
    bool fuse = true;
    // Keep constant weights reordered into oneDNN's layouts between runs. Off for a single inference: the
    // reordered copy would double the weights' memory for nothing.
    bool cacheWeights = true;
};

struct RunOptions {
    TensorObserver* observer = nullptr;
    NodeInterceptor* interceptor = nullptr;
    std::stop_token stop;  // checked between nodes; a stopped run returns StatusCode::Cancelled
};

class Executor {
public:
    static Result<std::unique_ptr<Executor>> create(const Graph& graph, const ExecutorOptions& options = {});
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    // Inputs by graph input name; returns the graph outputs in graph order.
    Result<NamedTensors> run(const NamedTensors& inputs, const RunOptions& options = {});

    const Graph& graph() const { return mGraph; }
    int threads() const { return mOptions.threads; }
    void setThreads(int threads);

private:
    // One kernel call: a node, or a fused group (a Conv with post-ops) standing for several nodes.
    struct Step {
        const Node* node = nullptr;  // the node the kernel runs as (a group's Conv)
        Kernel* kernel = nullptr;
        std::vector<ValueId> inputs, outputs;  // kNoId for omitted ones
        std::vector<ValueId> hidden;           // a group's intermediate values
        std::vector<NodeId> nodes;             // a group's nodes, to run one by one when it cannot be fused
        uint32_t layoutInputs = 0;             // bit i: input i may be given in a oneDNN layout as it is
        bool readsLayout(size_t i) const { return i < 32 && ((layoutInputs >> i) & 1u); }
    };

    Executor(const Graph& graph, const ExecutorOptions& options) : mGraph(graph), mOptions(options) {}
    Status prepare();
    Status prepareFusion();
    Status wrapConcats();
    void wrapActivations();
    // Lets each of `steps` leave its output in a oneDNN layout when every reader (per stepOfNode) takes it.
    void allowLayoutOutputs(const std::vector<const Step*>& stepOfNode, const std::vector<const Step*>& steps);
    // Appends to a node's step the enclosing-graph values its kernel's subgraphs read (Kernel::outerScopeInputs).
    Status addOuterScopeInputs(const Kernel& kernel, Step& step) const;
    Status bindInputs(const NamedTensors& inputs, std::vector<Tensor>& values) const;
    std::vector<const Step*> planFor(const RunOptions& options) const;
    // A step of the fused plan runs split into its nodes when the observer wants a hidden value, or when the
    // interceptor intercepts one of its nodes or provides some of them but not all.
    bool splitsStep(const Step& step, const RunOptions& options) const;
    Status runStep(const Step& step, const RunOptions& options, std::vector<Tensor>& values);
    // Checks a step's outputs, shows them to the observer and moves them into `values`.
    Status storeOutputs(const Step& step, const RunOptions& options, std::vector<Tensor>& outputs,
                        std::vector<Tensor>& values);

    const Graph& mGraph;
    ExecutorOptions mOptions;
    std::vector<std::unique_ptr<Kernel>> mKernels;  // per node, in graph order
    std::vector<std::unique_ptr<Kernel>> mGroupKernels;
    std::vector<Step> mNodeSteps;    // per node, in graph order
    std::vector<Step> mGroupSteps;   // fused groups
    std::vector<const Step*> mPlan;  // fused plan: groups at their last node's place, other nodes as they are
    std::vector<Tensor> mConstants;  // per value: initializers (borrowed or decoded)
};

}  // namespace ql
