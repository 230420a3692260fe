#pragma once
// Runs precision plans for `tune` on evaluation samples held in memory, cut into batches; the first batches
// are the tuning subset, all of them the confirmation set.
//   outputs(): the outputs of a whole plan (the INT8/FP16 simulation of simulation.h), all samples in order.
//   isolatedSqnr(): for each change alone (one layer group in INT8, or one tensor quantized with a given amax,
//     everything else FP32), the SQNR of the model's outputs against FP32. Per batch, the FP32 run keeps every
//     activation once; each change then recomputes only the nodes downstream of it, the others reading the
//     kept activations, so ranking L changes costs about L/2 passes, not L.
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <vector>

#include "core/data/data_source.h"
#include "core/exec/executor.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"

namespace ql {

struct IsolatedChange {
    std::vector<NodeId> int8Nodes{};  // these nodes INT8 (a layer and the nodes TensorRT fuses with it)...
    ValueId tensor = kNoId;           // ...or this tensor alone, quantized with `amax`...
    float amax = 0.0f;
    // ...or this plan (a body's layer INT8, everything else FP32), which changes nothing before the main graph's
    // node `from` (the control-flow node holding the body)
    std::shared_ptr<const PrecisionPlan> plan{};
    NodeId from = kNoId;
};

class TuneEvaluator {
public:
    struct Options {
        int64_t maxSamples = 0;  // 0: all
        int64_t batchSize = 8;   // when the model's batch axis is not fixed
        int threads = 1;
    };
    // Reads the samples and runs FP32 once over them.
    static Result<std::unique_ptr<TuneEvaluator>> create(const Graph& graph, const CalibrationResult& calibration,
                                                         DataSource& data, const Options& options,
                                                         std::stop_token stop = {});

    size_t batchCount() const { return mInputs.size(); }
    int64_t samplesIn(size_t batches) const;
    // The data index (axis 0 of the DataSource) of each sample of the first `batches` batches, in output row order.
    std::vector<int64_t> sampleIndices(size_t batches) const;
    // The FP32 outputs of the first `batches` batches, concatenated along axis 0.
    NamedTensors fp32Outputs(size_t batches) const;
    Result<NamedTensors> outputs(const PrecisionPlan& plan, size_t batches, std::stop_token stop = {});
    // The same per batch, for scores of several prefixes from one run.
    Result<std::vector<NamedTensors>> batchOutputs(const PrecisionPlan& plan, size_t batches,
                                                   std::stop_token stop = {});
    // One SQNR (dB) per change; `progress(done, total)` counts changes x batches.
    Result<std::vector<double>> isolatedSqnr(const std::vector<IsolatedChange>& changes, size_t batches,
                                             const std::function<void(int64_t, int64_t)>& progress = {},
                                             std::stop_token stop = {});
    // Node executions of isolatedSqnr so far, in passes over the graph (nodes run / nodes of the graph), per batch.
    double isolatedPasses() const;

private:
    TuneEvaluator(const Graph& graph, const CalibrationResult& calibration)
        : mGraph(graph), mCalibration(calibration) {}
    std::vector<bool> downstreamOf(const IsolatedChange& change) const;
    int64_t rowsOf(size_t batch) const;  // the samples of one batch

    const Graph& mGraph;
    const CalibrationResult& mCalibration;
    std::unique_ptr<Executor> mExecutor;
    std::vector<NamedTensors> mInputs;       // per batch
    std::vector<int64_t> mFirstSample;       // per batch: the data index of its first sample
    std::vector<NamedTensors> mFp32Outputs;  // per batch
    int64_t mNodeRuns = 0;
};

// Tensors of the same name concatenated along axis 0 (batches of one model's outputs).
NamedTensors concatBatches(const std::vector<NamedTensors>& batches);

}  // namespace ql
