#pragma once
// Runs a Graph on CPU. Built once per graph (kernels looked up and initialised, weights wrapped without
// copying, the last consumer of every value computed), then run on batches. Not re-entrant: one run at a
// time per Executor.
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

// Sees every tensor a node produces. Keeping a copy of the Tensor keeps its storage alive; the executor
// frees its own reference after the value's last consumer.
class TensorObserver {
public:
    virtual ~TensorObserver() = default;
    virtual void observe(const Node& producer, ValueId value, const Tensor& tensor) = 0;
};

// Lets a caller change what a node sees and produces (quantization simulation: quantize-dequantize the
// inputs of INT8 layers, round FP16 layers to half).
class NodeInterceptor {
public:
    virtual ~NodeInterceptor() = default;
    // `inputs[i]` is empty for an omitted optional input; replace entries to change what the kernel sees.
    virtual Status beforeNode(const Node& node, std::vector<Tensor>& inputs) = 0;
    virtual Status afterNode(const Node& node, std::vector<Tensor>& outputs) = 0;
};

struct ExecutorOptions {
    int threads = 1;
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
    Executor(const Graph& graph, const ExecutorOptions& options) : mGraph(graph), mOptions(options) {}
    Status prepare();
    Status bindInputs(const NamedTensors& inputs, std::vector<Tensor>& values) const;

    const Graph& mGraph;
    ExecutorOptions mOptions;
    std::vector<std::unique_ptr<Kernel>> mKernels;  // per node, in graph order
    std::vector<Tensor> mConstants;                 // per value: initializers (borrowed or decoded)
    std::vector<int32_t> mLastUse;                  // per value: index of the last consuming node, -1 if none
};

}  // namespace ql
