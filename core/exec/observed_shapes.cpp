#include "core/exec/observed_shapes.h"

#include <algorithm>

#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"

namespace ql {
namespace {

class TensorRecorder final : public TensorObserver {
public:
    explicit TensorRecorder(const std::vector<bool>& wanted) : mWanted(wanted) {}
    bool wants(ValueId value) const override { return mWanted[static_cast<size_t>(value)]; }
    bool acceptsLayouts() const override { return true; }  // shape and type are all it reads
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        seen[value] = {tensor.shape(), tensor.dtype()};
    }
    ObservedTensors seen;

private:
    const std::vector<bool>& mWanted;
};

}  // namespace

Result<ObservedTensors> observeTensors(const Graph& graph, const std::vector<bool>& wanted, int64_t openDim,
                                       int threads, const KnownInputShapes& known) {
    QL_ASSIGN_OR_RETURN(NamedTensors inputs, randomInputs(graph, 1, openDim, known));
    QL_ASSIGN_OR_RETURN(auto executor,
                        Executor::create(graph, {.threads = threads, .fuse = true, .cacheWeights = false}));
    TensorRecorder recorder(wanted);
    RunOptions run;
    run.observer = &recorder;
    QL_RETURN_IF_ERROR(executor->run(inputs, run).status());
    return std::move(recorder.seen);
}

bool hasOpenInputDims(const Graph& graph) {
    return std::any_of(graph.inputs().begin(), graph.inputs().end(), [&](ValueId id) {
        const TensorType& type = graph.value(id).type;
        return std::any_of(type.dims.begin(), type.dims.end(), [](const Dim& d) { return !d.known(); });
    });
}

}  // namespace ql
