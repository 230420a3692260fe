#include "core/quant/calibration.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "core/exec/executor.h"
#include "core/exec/fusion.h"
#include "core/model/constant_values.h"
#include "core/quant/channel_range_observer.h"
#include "core/quant/observation_queue.h"
#include "core/quant/qdq_placement.h"
#include "core/quant/weight_ranges.h"

namespace ql {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Ops whose first output holds exactly the values of their first input (a view or a copy, maybe
// reshaped): that output's statistics are its input's, so it is not counted again. Dropout only without a
// training_mode input (the kernel passes the data through then).
bool copiesItsInput(const Node& node) {
    static const std::set<std::string, std::less<>> kCopies = {"Identity", "Reshape", "Flatten", "Squeeze",
                                                               "Unsqueeze"};
    if (node.domain != "" && node.domain != "ai.onnx") return false;
    if (node.opType == "Dropout") return node.inputs.size() < 3 || node.inputs[2] == kNoId;
    return kCopies.contains(node.opType);
}

// The bounds of a Relu or of a Clip whose bounds are constants (inputs from opset 11, attributes before).
std::optional<std::pair<float, float>> clampBounds(const Graph& graph, const Node& node) {
    if (node.domain != "" && node.domain != "ai.onnx") return std::nullopt;
    constexpr float kLowest = std::numeric_limits<float>::lowest(), kMax = std::numeric_limits<float>::max();
    if (node.opType == "Relu") return std::pair{0.0f, kInf};
    if (node.opType != "Clip") return std::nullopt;
    float bound[2] = {node.floatAttribute("min", kLowest), node.floatAttribute("max", kMax)};
    for (size_t i = 1; i < 3 && i < node.inputs.size(); ++i) {
        if (node.inputs[i] == kNoId) continue;
        const std::optional<std::vector<float>> value = constantFloats(graph, node.inputs[i]);
        if (!value || value->size() != 1) return std::nullopt;
        bound[i - 1] = value->front();
    }
    if (!(bound[0] <= bound[1])) return std::nullopt;  // also NaN bounds
    return std::pair{bound[0], bound[1]};
}

// One calibration observer per float value, made on first sight, except for the outputs of
// copiesItsInput nodes, which share the statistics of the value they copy (`mSameAs`, fixed up front). The values
// an INT8 layer may quantize (inputs of placesOwnQdq nodes), copies included, also get their channel ranges, each
// on its own channel axis.
class ActivationCollector final : public TensorObserver {
public:
    // `partial`: the values hidden in fused groups are observed only while observeFusedAway(true).
    ActivationCollector(const Graph& graph, const CalibrationConfig& config, int threads, bool partial)
        : mGraph(graph),
          mConfig(config),
          mThreads(std::max(1, threads)),
          mObservers(graph.values().size()),
          mSameAs(graph.values().size(), kNoId),
          mClamps(graph.values().size()),
          mClampsOf(graph.values().size()),
          mFusedAway(graph.values().size(), false),
          mChannelAxis(graph.values().size()),
          mChannels(graph.values().size()) {
        if (partial)
            for (const FusionGroup& group : findConvFusions(graph))
                for (ValueId v : group.hidden)  // a gated Conv input is quantized by TensorRT: every sample
                    if (v != group.gatedProduct) mFusedAway[static_cast<size_t>(v)] = true;
        for (const Node& node : graph.nodes()) {  // in execution order, so chains of copies resolve
            if (node.inputs.empty() || node.inputs[0] == kNoId || node.outputs.empty() || node.outputs[0] == kNoId ||
                !runtimeValue(node.inputs[0]))
                continue;
            const auto out = static_cast<size_t>(node.outputs[0]);
            const ValueId from = source(node.inputs[0]);
            if (copiesItsInput(node)) {
                mSameAs[out] = from;
            } else if (auto bounds = clampBounds(mGraph, node);
                       bounds && !mClamps[static_cast<size_t>(from)] && !mFusedAway[static_cast<size_t>(from)] &&
                       mGraph.value(from).type.dtype == DataType::Float) {  // counted on every sample
                mClamps[out] = Clamp{from, bounds->first, bounds->second};
                mClampsOf[static_cast<size_t>(from)].push_back(node.outputs[0]);
            }
        }
        // Channel ranges only where an INT8 layer may put a Q/DQ: the tensors the diagnosis reads.
        for (const Node& node : graph.nodes())
            if (placesOwnQdq(node))
                for (ValueId in : node.inputs)
                    if (in != kNoId && runtimeValue(in))
                        mChannelAxis[static_cast<size_t>(in)] = activationChannelAxis(graph, in);
    }

    bool wants(ValueId value) const override {
        const NodeId producer = mGraph.value(value).producer;
        return (mSameAs[static_cast<size_t>(value)] == kNoId || mChannelAxis[static_cast<size_t>(value)]) &&
               (producer == kNoId || mGraph.node(producer).opType != "Constant") &&
               (mObserveFusedAway || !mFusedAway[static_cast<size_t>(value)]);
    }
    // Whether the next runs observe the values hidden in fused groups (and so split those groups).
    void observeFusedAway(bool on) { mObserveFusedAway = on; }
    // Statistics ignore element order: a tensor left in a oneDNN layout is read as it is (observer.h).
    bool acceptsLayouts() const override { return true; }
    void observe(const Node&, ValueId value, const Tensor& tensor) override { take(value, tensor); }
    // Tensors inside control-flow bodies, by path: counted on the run's thread (the queue's worker owns only the
    // main graph's observers), so the run waits for them.
    bool wantsNested(const std::string&) const override { return true; }
    void observeNested(const std::string& path, const Node&, const Tensor& tensor) override {
        const DataType d = tensor.dtype();
        if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double) return;
        auto& observer = mNested[path];
        if (!observer) observer = newObserver();
        observer->observe(tensor);
    }
    // A tensor of a value, produced by the run or given as an input.
    void take(ValueId value, const Tensor& tensor) {
        if (!wants(value)) return;
        if (mQueue)
            mQueue->push(value, tensor);
        else
            observeValue(value, tensor);
    }
    // Counts from here on on the queue's worker thread, which then owns every observer.
    void countOn(ObservationQueue* queue) { mQueue = queue; }
    void observeValue(ValueId value, const Tensor& tensor) {
        const DataType d = tensor.dtype();
        if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double) return;
        observeChannels(value, tensor);
        if (mSameAs[static_cast<size_t>(value)] != kNoId) return;  // a copy: its input has the statistics
        const std::optional<Clamp>& clamp = mClamps[static_cast<size_t>(value)];
        if (clamp && clamp->derived) return;  // counted from its input
        auto& observer = mObservers[static_cast<size_t>(value)];
        if (!observer) observer = newObserver();
        const std::vector<ValueId>& clamps = mClampsOf[static_cast<size_t>(value)];
        // The state before this batch, for a clamp output that stops being derivable with it.
        const std::optional<HistogramObserver> before =
            clamps.empty() ? std::nullopt : std::optional<HistogramObserver>(*observer);
        observer->observe(tensor);
        for (ValueId out : clamps) {
            Clamp& clamp = *mClamps[static_cast<size_t>(out)];
            if (!clamp.derived || stillDerivable(clamp, *observer)) continue;
            clamp.derived = false;  // counts its own tensors from this batch on, starting from what it saw so far
            auto& own = mObservers[static_cast<size_t>(out)];
            own = std::make_unique<HistogramObserver>(before->clamped(clamp.lo, clamp.hi));
        }
    }

    // The amax of every method is the costly part (entropy and mse scan ~2000 candidates per tensor):
    // tensors are independent, so they are shared out over the threads.
    // `fusedAwaySamples`: the samples the values hidden in fused groups were observed on.
    std::vector<TensorRange> ranges(int threads, int64_t fusedAwaySamples) const {
        std::vector<const HistogramObserver*> observers(mObservers.size(), nullptr);  // per value that has one
        std::vector<std::unique_ptr<HistogramObserver>> derived(mObservers.size());
        for (size_t v = 0; v < mObservers.size(); ++v) {
            observers[v] = mObservers[v].get();
            const std::optional<Clamp>& clamp = mClamps[v];
            if (!clamp || !clamp->derived || !mObservers[static_cast<size_t>(clamp->from)]) continue;
            derived[v] = std::make_unique<HistogramObserver>(
                mObservers[static_cast<size_t>(clamp->from)]->clamped(clamp->lo, clamp->hi));
            observers[v] = derived[v].get();
        }
        std::vector<size_t> owners;
        for (size_t v = 0; v < observers.size(); ++v)
            if (observers[v]) owners.push_back(v);
        std::vector<TensorRange> own(observers.size());
        const auto count = static_cast<int64_t>(owners.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
        for (int64_t i = 0; i < count; ++i) {
            const size_t v = owners[static_cast<size_t>(i)];
            own[v] = rangeOf(*observers[v], mGraph.value(static_cast<ValueId>(v)).name);
        }
        std::vector<TensorRange> ranges;
        for (size_t v = 0; v < observers.size(); ++v) {
            const auto from = static_cast<size_t>(source(static_cast<ValueId>(v)));
            if (!observers[from]) continue;
            ranges.push_back(own[from]);
            ranges.back().name = mGraph.value(static_cast<ValueId>(v)).name;
            if (mFusedAway[from]) ranges.back().samples = fusedAwaySamples;
            if (const auto& channels = mChannels[v]; channels && !channels->amax().empty()) {
                ranges.back().channelAmax = channels->amax();
                ranges.back().channelAxis = channels->axis();
            }
        }
        return ranges;
    }

    // The ranges of the tensors inside control-flow bodies, by path.
    std::vector<TensorRange> subgraphRanges() const {
        std::vector<TensorRange> ranges;
        for (const auto& [path, observer] : mNested) ranges.push_back(rangeOf(*observer, path));
        return ranges;
    }

private:
    TensorRange rangeOf(const HistogramObserver& o, const std::string& name) const {
        const MethodAmax byMethod = amaxByMethod(o, mConfig);
        Histogram kept = coarsened(o.histogram(), kPlotHistogramBins);
        // auto weighs the methods on the histogram kept, the one the diagnosis and the window read: the method it
        // chooses is the one they show with the highest expected SQNR (on the finer one, methods within a
        // fraction of a dB ranked the other way round).
        const CalibrationMethod method = mConfig.method == CalibrationMethod::Auto
                                             ? bestExpectedMethod(foldToAbsolute(kept), byMethod, mConfig.levels)
                                             : mConfig.method;
        return {name, byMethod.of(method), method, o.min(), o.max(), o.nonFiniteCount(), byMethod, std::move(kept)};
    }

    // y = clamp(x, lo, hi) (Relu, Clip) of a float x. While `derived`, y's observer would have x's range
    // (tracked in `range`, grown as HistogramObserver grows its own) and x had no non-finite value, so
    // y's statistics are x's clamped (HistogramObserver::clamped) and y's tensors are not counted.
    struct Clamp {
        ValueId from = kNoId;
        float lo = 0.0f, hi = 0.0f;
        bool derived = true;
        double range = 0.0;
    };

    std::map<std::string, std::unique_ptr<HistogramObserver>> mNested;  // by path, sorted

    std::unique_ptr<HistogramObserver> newObserver() const {
        auto observer = calibrationObserver(mConfig);
        observer->setThreads(mThreads);
        return observer;
    }
    void observeChannels(ValueId value, const Tensor& tensor) {
        const std::optional<int64_t>& axis = mChannelAxis[static_cast<size_t>(value)];
        if (!axis) return;
        auto& channels = mChannels[static_cast<size_t>(value)];
        if (!channels) channels = std::make_unique<ChannelRangeObserver>(*axis);
        channels->observe(tensor);
    }

    // After x's observer saw a batch: does y's range still follow x's?
    static bool stillDerivable(Clamp& clamp, const HistogramObserver& x) {
        const FiniteRange& batch = x.lastBatch();
        if (batch.nonFinite) return false;  // clamp(+-Inf) is finite: y's statistics differ
        if (batch.finite) {
            const auto clamp01 = [&](float v) { return std::fabs(double{std::min(std::max(v, clamp.lo), clamp.hi)}); };
            const double magnitude = std::max(clamp01(batch.min), clamp01(batch.max));
            if (clamp.range == 0.0)
                clamp.range = magnitude;
            else
                while (clamp.range < magnitude) clamp.range *= 2.0;
        }
        return clamp.range == x.histogram().range;
    }

    // A graph input fed by the data, or the output of a node other than Constant: what calibration observes.
    bool runtimeValue(ValueId value) const {
        const Value& v = mGraph.value(value);
        if (v.producer != kNoId) return mGraph.node(v.producer).opType != "Constant";
        return v.isGraphInput && v.initializer < 0;
    }
    ValueId source(ValueId value) const {
        return mSameAs[static_cast<size_t>(value)] != kNoId ? mSameAs[static_cast<size_t>(value)] : value;
    }

    const Graph& mGraph;
    const CalibrationConfig& mConfig;
    const int mThreads;
    ObservationQueue* mQueue = nullptr;
    std::vector<std::unique_ptr<HistogramObserver>> mObservers;    // per value
    std::vector<ValueId> mSameAs;                                  // per value: the value whose statistics it shares
    std::vector<std::optional<Clamp>> mClamps;                     // per value: the clamp that produces it
    std::vector<std::vector<ValueId>> mClampsOf;                   // per value: the clamp outputs of it
    std::vector<bool> mFusedAway;                                  // per value: hidden in a fused group
    std::vector<std::optional<int64_t>> mChannelAxis;              // per value: the channel axis, if it has one
    std::vector<std::unique_ptr<ChannelRangeObserver>> mChannels;  // per value: its channel ranges
    bool mObserveFusedAway = true;
};

Result<Tensor> weightTensor(const Graph& graph, ValueId id) {
    const std::optional<std::vector<float>> values = constantFloats(graph, id);
    const Value& value = graph.value(id);
    Shape shape;
    if (const Initializer* init = graph.initializerOf(id)) {
        shape = init->dims;
    } else {
        for (const Dim& d : value.type.dims) shape.push_back(d.size);
    }
    if (!values || static_cast<int64_t>(values->size()) != shapeElementCount(shape))
        return invalidArgument("weight '" + value.name + "' cannot be read as a float constant of known shape");
    return Tensor::fromVector(DataType::Float, shape, *values);
}

}  // namespace

const TensorRange* CalibrationResult::activation(std::string_view name) const {
    for (const TensorRange& r : activations)
        if (r.name == name) return &r;
    return nullptr;
}

Result<std::vector<WeightRange>> weightRanges(const Graph& graph, int threads) {
    struct Weight {
        const Node* node;
        ValueId value;
        int64_t axis;
    };
    std::vector<Weight> weights;
    for (const Node& node : graph.nodes()) {
        if (node.inputs.size() < 2 || node.inputs[1] == kNoId || !isConstant(graph, node.inputs[1])) continue;
        const ValueId w = node.inputs[1];
        const DataType d = constantDataType(graph, w);
        if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double)
            continue;
        const size_t rank =
            graph.initializerOf(w) ? graph.initializerOf(w)->dims.size() : graph.value(w).type.dims.size();
        if (const std::optional<int64_t> axis = weightChannelAxis(node, 1, rank)) weights.push_back({&node, w, *axis});
    }
    // Reading a weight copies it out of the model (ResNet-50: 100 MB), so they are read in parallel.
    std::vector<Result<std::vector<float>>> amax(weights.size(), internalError("weight not read"));
    const auto count = static_cast<int64_t>(weights.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
    for (int64_t i = 0; i < count; ++i) {
        const Weight& w = weights[static_cast<size_t>(i)];
        Result<Tensor> tensor = weightTensor(graph, w.value);
        amax[static_cast<size_t>(i)] = tensor.isOk() ? perChannelAmax(*tensor, w.axis) : tensor.status();
    }
    std::vector<WeightRange> ranges;
    for (size_t i = 0; i < weights.size(); ++i) {
        const Node& node = *weights[i].node;
        if (!amax[i].isOk()) return amax[i].status().withContext("Node (" + node.name + ") Op (" + node.opType + ")");
        ranges.push_back({graph.value(weights[i].value).name, node.id, weights[i].axis, std::move(amax[i]).value()});
    }
    return ranges;
}

Result<CalibrationResult> calibrate(const Graph& graph, DataSource& data, const CalibrationConfig& config,
                                    const CalibrationOptions& options, const ProgressFn& progress,
                                    std::stop_token stop) {
    QL_RETURN_IF_ERROR(makeCalibrator(config).status());  // checks the config
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(graph, {options.threads}));
    const int64_t available = data.sampleCount();
    const int64_t total = options.maxSamples > 0 ? std::min(options.maxSamples, available) : available;
    const Batching batch = batchingFor(graph, options.batchSize);
    if (total == 0 || (batch.fixed && total < batch.size)) {
        return invalidArgument("calibration needs at least " + std::to_string(batch.size) +
                               " samples (the model's batch size) but the data holds " + std::to_string(total));
    }
    // With a core the run leaves idle, statistics are counted there, one thread, while the run goes on;
    // otherwise inline, sharing the run's threads (a third busy thread would only take turns with them).
    using Counting = CalibrationOptions::Counting;
    const bool overlap =
        options.counting == Counting::Background ||
        (options.counting == Counting::Auto && options.threads < static_cast<int>(std::thread::hardware_concurrency()));
    // A fixed batch axis cannot take a partial batch: the remainder of the samples is left out.
    const int64_t usable = batch.usable(total);
    const int64_t fusedAwayTarget = options.fullStatistics ? usable
                                                           : std::max(CalibrationOptions::kFusedAwaySamples,
                                                                      usable / CalibrationOptions::kFusedAwayShare);
    ActivationCollector collector(graph, config, overlap ? 1 : options.threads, fusedAwayTarget < usable);
    ObservationQueue queue([&collector](ValueId value, const Tensor& t) { collector.observeValue(value, t); });
    if (overlap) collector.countOn(&queue);
    CalibrationResult result;
    result.config = config;
    int64_t fusedAwaySamples = 0;
    InputShapeRecorder inputShapes;
    for (int64_t first = 0; first < usable; first += batch.size) {
        if (stop.stop_requested()) return cancelled("calibration cancelled");
        const int64_t count = std::min(batch.size, usable - first);
        // Spread over the run rather than the first batches: a split run queues twice the values, and a run of
        // them in a row filled the queue and made the inference wait for the counting (MobileNetV2: +0.15x).
        const bool fusedAway =
            fusedAwaySamples < fusedAwayTarget && fusedAwaySamples * usable <= first * fusedAwayTarget;
        collector.observeFusedAway(fusedAway);
        if (fusedAway) fusedAwaySamples += count;
        QL_ASSIGN_OR_RETURN(NamedTensors inputs, data.read(first, count));
        inputShapes.add(inputs);
        for (const auto& [name, tensor] : inputs)
            if (auto id = graph.findValue(name)) collector.take(*id, tensor);
        RunOptions run;
        run.observer = &collector;
        run.stop = stop;
        auto outputs = executor->run(inputs, run);
        if (!outputs.isOk()) return outputs.status();
        result.samples += count;
        if (progress) progress(result.samples, total);
    }
    QL_RETURN_IF_ERROR(queue.drain());

    // The counting core is free again.
    result.activations = collector.ranges(overlap ? options.threads + 1 : options.threads,
                                          fusedAwaySamples < result.samples ? fusedAwaySamples : 0);
    result.subgraphActivations = collector.subgraphRanges();
    result.inputShapes = inputShapes.ranges();
    QL_ASSIGN_OR_RETURN(result.weights, weightRanges(graph, overlap ? options.threads + 1 : options.threads));
    return result;
}

}  // namespace ql
