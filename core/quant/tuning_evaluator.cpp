#include "core/quant/tuning_evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/quant/qdq_placement.h"
#include "core/quant/simulation.h"
#include "core/quant/tuning_target.h"

namespace ql {
namespace {

// Keeps every value a run produces, in the layout it was made in (the partial runs read them as the fused
// plan would, without reordering them back).
class KeepAll final : public TensorObserver {
public:
    explicit KeepAll(size_t values) : mValues(values) {}
    bool acceptsLayouts() const override { return true; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        mValues[static_cast<size_t>(value)] = tensor;
    }
    std::vector<Tensor> mValues;
};

// Quantizes one tensor wherever a node reads it.
class TensorQuantizer final : public NodeInterceptor {
public:
    TensorQuantizer(ValueId tensor, float amax) : mTensor(tensor), mScale(int8Scale(amax)) {}
    bool intercepts(const Node& node) const override {
        return std::find(node.inputs.begin(), node.inputs.end(), mTensor) != node.inputs.end();
    }
    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override {
        for (size_t i = 0; i < inputs.size() && i < node.inputs.size(); ++i)
            if (node.inputs[i] == mTensor && inputs[i].dtype() == DataType::Float)
                inputs[i] = fakeQuantize(inputs[i], {mScale});
        return Status::ok();
    }
    Status afterNode(const Node&, std::vector<Tensor>&) override { return Status::ok(); }

private:
    ValueId mTensor;
    float mScale;
};

// Runs the nodes downstream of a change (through `inner` where it intercepts them, fused otherwise); every
// other node gives its kept FP32 outputs.
class PartialRun final : public NodeInterceptor {
public:
    PartialRun(const std::vector<bool>& downstream, const std::vector<Tensor>& kept, NodeInterceptor& inner)
        : mDownstream(downstream), mKept(kept), mInner(inner) {}
    bool provides(const Node& node) const override { return !mDownstream[static_cast<size_t>(node.id)]; }
    Tensor providedValue(ValueId value) const override { return mKept[static_cast<size_t>(value)]; }
    bool intercepts(const Node& node) const override { return mInner.intercepts(node); }
    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override {
        return mInner.beforeNode(node, inputs);
    }
    Status afterNode(const Node& node, std::vector<Tensor>& outputs) override {
        return mInner.afterNode(node, outputs);
    }
    NodeInterceptor* nested(const Node& node, const std::string& attribute, const Graph& body) override {
        return mInner.nested(node, attribute, body);
    }

private:
    const std::vector<bool>& mDownstream;
    const std::vector<Tensor>& mKept;
    NodeInterceptor& mInner;
};

PrecisionPlan unitPlan(const Graph& graph, const std::vector<NodeId>& nodes) {
    PrecisionPlan plan(graph, Precision::Fp32);
    for (NodeId n : nodes) plan.setRequested(n, Precision::Int8);
    return plan;
}

}  // namespace

NamedTensors concatBatches(const std::vector<NamedTensors>& batches) {
    NamedTensors out;
    if (batches.empty()) return out;
    for (size_t o = 0; o < batches[0].size(); ++o) {
        const Tensor& first = batches[0][o].second;
        Shape shape = first.shape();
        if (shape.empty()) {
            out.push_back(batches[0][o]);
            continue;
        }
        shape[0] = 0;
        for (const NamedTensors& b : batches) shape[0] += b[o].second.dim(0);
        Tensor all(first.dtype(), shape);
        auto* dst = static_cast<std::byte*>(all.rawData());
        for (const NamedTensors& b : batches) {
            const Tensor& t = b[o].second;
            const size_t bytes = static_cast<size_t>(t.elementCount()) * dataTypeSize(t.dtype());
            if (bytes) std::memcpy(dst, t.rawData(), bytes);
            dst += bytes;
        }
        out.emplace_back(batches[0][o].first, std::move(all));
    }
    return out;
}

Result<std::unique_ptr<TuneEvaluator>> TuneEvaluator::create(const Graph& graph, const CalibrationResult& calibration,
                                                             DataSource& data, const Options& options,
                                                             std::stop_token stop) {
    std::unique_ptr<TuneEvaluator> e(new TuneEvaluator(graph, calibration));
    const Batching batch = batchingFor(graph, options.batchSize);
    int64_t total = data.sampleCount();
    if (options.maxSamples > 0) total = std::min(total, options.maxSamples);
    const int64_t usable = batch.usable(total);
    if (usable <= 0)
        return invalidArgument("tuning needs at least " + std::to_string(batch.size) + " samples but the data holds " +
                               std::to_string(total));
    QL_ASSIGN_OR_RETURN(e->mExecutor, Executor::create(graph, {options.threads}));
    for (int64_t first = 0; first < usable; first += batch.size) {
        if (stop.stop_requested()) return cancelled();
        const int64_t count = std::min(batch.size, usable - first);
        QL_ASSIGN_OR_RETURN(NamedTensors inputs, data.read(first, count));
        QL_ASSIGN_OR_RETURN(NamedTensors outputs, e->mExecutor->run(inputs, {.stop = stop}));
        e->mInputs.push_back(std::move(inputs));
        e->mFirstSample.push_back(first);
        e->mFp32Outputs.push_back(std::move(outputs));
    }
    return e;
}

int64_t TuneEvaluator::rowsOf(size_t batch) const {
    const NamedTensors& inputs = mInputs[batch];
    return inputs.empty() || inputs[0].second.rank() == 0 ? 1 : inputs[0].second.dim(0);
}

int64_t TuneEvaluator::samplesIn(size_t batches) const {
    int64_t n = 0;
    for (size_t b = 0; b < batches && b < mInputs.size(); ++b) n += rowsOf(b);
    return n;
}

std::vector<int64_t> TuneEvaluator::sampleIndices(size_t batches) const {
    std::vector<int64_t> indices;
    for (size_t b = 0; b < batches && b < mInputs.size(); ++b) {
        for (int64_t i = 0; i < rowsOf(b); ++i) indices.push_back(mFirstSample[b] + i);
    }
    return indices;
}

NamedTensors TuneEvaluator::fp32Outputs(size_t batches) const {
    batches = std::min(batches, mFp32Outputs.size());
    return concatBatches({mFp32Outputs.begin(), mFp32Outputs.begin() + static_cast<std::ptrdiff_t>(batches)});
}

Result<std::vector<NamedTensors>> TuneEvaluator::batchOutputs(const PrecisionPlan& plan, size_t batches,
                                                              std::stop_token stop) {
    QL_ASSIGN_OR_RETURN(auto simulator, QuantSimulator::create(mGraph, plan, mCalibration));
    std::vector<NamedTensors> out;
    for (size_t b = 0; b < batches && b < mInputs.size(); ++b) {
        QL_ASSIGN_OR_RETURN(NamedTensors o, mExecutor->run(mInputs[b], {.interceptor = simulator.get(), .stop = stop}));
        out.push_back(std::move(o));
    }
    return out;
}

Result<NamedTensors> TuneEvaluator::outputs(const PrecisionPlan& plan, size_t batches, std::stop_token stop) {
    QL_ASSIGN_OR_RETURN(const std::vector<NamedTensors> out, batchOutputs(plan, batches, stop));
    return concatBatches(out);
}

std::vector<bool> TuneEvaluator::downstreamOf(const IsolatedChange& change) const {
    std::vector<bool> down(mGraph.nodes().size(), false);
    std::vector<bool> affected(mGraph.values().size(), false);
    if (change.tensor != kNoId) affected[static_cast<size_t>(change.tensor)] = true;
    for (NodeId n : change.int8Nodes) down[static_cast<size_t>(n)] = true;
    if (change.from != kNoId) down[static_cast<size_t>(change.from)] = true;
    for (const Node& node : mGraph.nodes()) {  // topological order
        bool reached = down[static_cast<size_t>(node.id)];
        for (ValueId in : node.inputs) reached = reached || (in != kNoId && affected[static_cast<size_t>(in)]);
        if (!reached) continue;
        down[static_cast<size_t>(node.id)] = true;
        for (ValueId out : node.outputs)
            if (out != kNoId) affected[static_cast<size_t>(out)] = true;
    }
    return down;
}

Result<std::vector<double>> TuneEvaluator::isolatedSqnr(const std::vector<IsolatedChange>& changes, size_t batches,
                                                        const std::function<void(int64_t, int64_t)>& progress,
                                                        std::stop_token stop) {
    batches = std::min(batches, mInputs.size());
    std::vector<std::unique_ptr<NodeInterceptor>> inner;
    std::vector<std::vector<bool>> downstream;
    for (const IsolatedChange& c : changes) {
        if (c.tensor != kNoId) {
            inner.push_back(std::make_unique<TensorQuantizer>(c.tensor, c.amax));
        } else if (c.plan) {
            QL_ASSIGN_OR_RETURN(auto simulator, QuantSimulator::create(mGraph, *c.plan, mCalibration));
            inner.push_back(std::move(simulator));
        } else {
            QL_ASSIGN_OR_RETURN(auto simulator,
                                QuantSimulator::create(mGraph, unitPlan(mGraph, c.int8Nodes), mCalibration));
            inner.push_back(std::move(simulator));
        }
        downstream.push_back(downstreamOf(c));
    }
    std::vector<OutputErrors> errors(changes.size());
    const auto total = static_cast<int64_t>(changes.size() * batches);
    for (size_t b = 0; b < batches; ++b) {
        KeepAll kept(mGraph.values().size());
        QL_RETURN_IF_ERROR(mExecutor->run(mInputs[b], {.observer = &kept, .stop = stop}).status());
        for (size_t c = 0; c < changes.size(); ++c) {
            if (stop.stop_requested()) return cancelled();
            PartialRun partial(downstream[c], kept.mValues, *inner[c]);
            mNodeRuns += std::count(downstream[c].begin(), downstream[c].end(), true);
            QL_ASSIGN_OR_RETURN(NamedTensors changed,
                                mExecutor->run(mInputs[b], {.interceptor = &partial, .stop = stop}));
            errors[c].add(mFp32Outputs[b], changed);
            if (progress) progress(static_cast<int64_t>(b * changes.size() + c + 1), total);
        }
    }
    std::vector<double> db;
    for (const OutputErrors& e : errors) db.push_back(e.worstSqnrDb());
    return db;
}

double TuneEvaluator::isolatedPasses() const {
    return static_cast<double>(mNodeRuns) / static_cast<double>(std::max<size_t>(1, mGraph.nodes().size()));
}

}  // namespace ql
