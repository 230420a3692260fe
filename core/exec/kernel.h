#pragma once
// The operator kernel interface. One kernel class per op (or op family) per file pair under kernels/,
// registered by (domain, op type, opset range) in kernels/registry.cpp. The executor creates one kernel
// instance per node, so a kernel may cache per-node state (parsed attributes, oneDNN primitives).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

struct RunOptions;  // core/exec/executor.h

// What a kernel sees when the executor is built: the node, the graph and the opset in force.
struct KernelInit {
    const Node& node;
    const Graph& graph;
    int64_t opset = 0;

    Status fail(const std::string& what) const;  // "Node (name) Op (type): what"
};

class KernelContext {
public:
    KernelContext(const Node& node, std::span<const Tensor* const> inputs, std::vector<Tensor>& outputs, int threads)
        : mNode(node), mInputs(inputs), mOutputs(outputs), mThreads(threads) {}

    const Node& node() const { return mNode; }
    size_t inputCount() const { return mInputs.size(); }
    // False for an omitted optional input (empty name) or a slot beyond the node's inputs.
    bool hasInput(size_t i) const { return i < mInputs.size() && mInputs[i] != nullptr; }
    const Tensor& input(size_t i) const { return *mInputs[i]; }
    size_t outputCount() const { return mOutputs.size(); }
    // Allocates output i (uninitialised) and returns it.
    Tensor& allocateOutput(size_t i, DataType dtype, Shape shape);
    // Sets output i to an existing tensor (e.g. a view of an input for Reshape/Identity).
    void setOutput(size_t i, Tensor tensor);
    int threads() const { return mThreads; }
    // The options of the run that calls the kernel (observer, stop token), for kernels that run subgraphs
    // (If, Loop, Scan); null outside an executor run.
    const RunOptions* runOptions() const { return mRun; }
    void setRunOptions(const RunOptions* run) { mRun = run; }

    // An error that names the node: "Node (name) Op (type): what".
    Status fail(const std::string& what) const;

private:
    const Node& mNode;
    std::span<const Tensor* const> mInputs;
    std::vector<Tensor>& mOutputs;
    int mThreads;
    const RunOptions* mRun = nullptr;
};

class Kernel {
public:
    virtual ~Kernel() = default;
    // Reads and validates attributes once, when the executor is built; unsupported attribute values fail here.
    virtual Status init(const KernelInit& info) {
        (void)info;
        return Status::ok();
    }
    virtual Status compute(KernelContext& ctx) = 0;
    // Values of the enclosing graph the kernel reads by name besides its inputs: what the subgraphs of If, Loop
    // and Scan use from outer scope. The executor gives them to compute() as inputs after the node's own, in
    // this order, and keeps them alive until then.
    virtual std::vector<std::string> outerScopeInputs() const { return {}; }
};

}  // namespace ql
