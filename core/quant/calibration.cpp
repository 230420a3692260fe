#include "core/quant/calibration.h"

#include <memory>

#include "core/exec/executor.h"
#include "core/model/constant_values.h"
#include "core/quant/weight_ranges.h"

namespace ql {
namespace {

// One calibration observer per float value, made on first sight.
class ActivationCollector final : public TensorObserver {
public:
    ActivationCollector(const Graph& graph, const CalibrationConfig& config)
        : mGraph(graph), mConfig(config), mObservers(graph.values().size()) {}

    void observe(const Node& producer, ValueId value, const Tensor& tensor) override {
        if (producer.opType != "Constant") observeValue(value, tensor);
    }
    void observeValue(ValueId value, const Tensor& tensor) {
        const DataType d = tensor.dtype();
        if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double) return;
        auto& observer = mObservers[static_cast<size_t>(value)];
        if (!observer) observer = calibrationObserver(mConfig);
        observer->observe(tensor);
    }

    std::vector<TensorRange> ranges() const {
        std::vector<TensorRange> ranges;
        for (size_t v = 0; v < mObservers.size(); ++v) {
            const HistogramObserver* o = mObservers[v].get();
            if (!o) continue;
            const MethodAmax byMethod = amaxByMethod(*o, mConfig);
            ranges.push_back({mGraph.value(static_cast<ValueId>(v)).name, byMethod.of(mConfig.method), o->min(),
                              o->max(), o->nonFiniteCount(), byMethod, coarsened(o->histogram(), kPlotHistogramBins)});
        }
        return ranges;
    }

private:
    const Graph& mGraph;
    const CalibrationConfig& mConfig;
    std::vector<std::unique_ptr<HistogramObserver>> mObservers;  // per value
};

// A fixed batch axis of any input decides the batch size (and forbids a partial last batch); otherwise
// the option does.
struct Batching {
    int64_t size = 1;
    bool fixed = false;
};

Batching batchingFor(const Graph& graph, const CalibrationOptions& options) {
    for (const InputSpec& spec : inputSpecs(graph))
        if (spec.hasShape && !spec.dims.empty() && spec.dims[0] > 0) return {spec.dims[0], true};
    return {std::max<int64_t>(1, options.batchSize), false};
}

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

Result<std::vector<WeightRange>> weightRanges(const Graph& graph) {
    std::vector<WeightRange> ranges;
    for (const Node& node : graph.nodes()) {
        if (node.inputs.size() < 2 || node.inputs[1] == kNoId || !isConstant(graph, node.inputs[1])) continue;
        const ValueId w = node.inputs[1];
        const DataType d = constantDataType(graph, w);
        if (d != DataType::Float && d != DataType::Float16 && d != DataType::BFloat16 && d != DataType::Double)
            continue;
        const Value& value = graph.value(w);
        const size_t rank = graph.initializerOf(w) ? graph.initializerOf(w)->dims.size() : value.type.dims.size();
        const std::optional<int64_t> axis = weightChannelAxis(node, 1, rank);
        if (!axis) continue;
        QL_ASSIGN_OR_RETURN(Tensor tensor, weightTensor(graph, w));
        auto amax = perChannelAmax(tensor, *axis);
        if (!amax.isOk()) return amax.status().withContext("Node (" + node.name + ") Op (" + node.opType + ")");
        ranges.push_back({value.name, node.id, *axis, std::move(amax).value()});
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
    const Batching batch = batchingFor(graph, options);
    if (total == 0 || (batch.fixed && total < batch.size)) {
        return invalidArgument("calibration needs at least " + std::to_string(batch.size) +
                               " samples (the model's batch size) but the data holds " + std::to_string(total));
    }
    ActivationCollector collector(graph, config);
    CalibrationResult result;
    result.config = config;
    // A fixed batch axis cannot take a partial batch: the remainder of the samples is left out.
    const int64_t usable = batch.fixed ? total - total % batch.size : total;
    for (int64_t first = 0; first < usable; first += batch.size) {
        if (stop.stop_requested()) return cancelled("calibration cancelled");
        const int64_t count = std::min(batch.size, usable - first);
        QL_ASSIGN_OR_RETURN(NamedTensors inputs, data.read(first, count));
        for (const auto& [name, tensor] : inputs)
            if (auto id = graph.findValue(name)) collector.observeValue(*id, tensor);
        RunOptions run;
        run.observer = &collector;
        run.stop = stop;
        auto outputs = executor->run(inputs, run);
        if (!outputs.isOk()) return outputs.status();
        result.samples += count;
        if (progress) progress(result.samples, total);
    }
    result.activations = collector.ranges();
    QL_ASSIGN_OR_RETURN(result.weights, weightRanges(graph));
    return result;
}

}  // namespace ql
