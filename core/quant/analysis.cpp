#include "core/quant/analysis.h"

#include <algorithm>
#include <map>
#include <random>
#include <unordered_map>

#include "core/exec/kernels/registry.h"
#include "core/model/body_path.h"
#include "core/model/subgraph_model.h"
#include "core/quant/body_analysis.h"
#include "core/quant/simulation.h"

namespace ql {

namespace {

bool isFloat(const Tensor& t) {
    return !t.empty() && t.dtype() == DataType::Float;
}

// A model output in any float type (a float16-io model's too): compared as float.
bool isFloatOutput(const Tensor& t) {
    return !t.empty() &&
           (t.dtype() == DataType::Float || t.dtype() == DataType::Float16 || t.dtype() == DataType::BFloat16);
}

// Keeps every float node output of the FP32 run, for the quantized run to compare against; the bodies' too.
class CaptureObserver final : public TensorObserver {
public:
    explicit CaptureObserver(BodyTensorErrors& bodies) : mBodies(bodies) {}
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        if (isFloat(tensor)) mTensors[value] = tensor;
    }
    bool wantsNested(const std::string&) const override { return true; }
    void observeNested(const std::string& path, const Node&, const Tensor& tensor) override {
        mBodies.keep(path, tensor);
    }
    std::unordered_map<ValueId, Tensor> mTensors;

private:
    BodyTensorErrors& mBodies;
};

// Compares every node output of the quantized run with the captured FP32 one, then drops the capture.
class CompareObserver final : public TensorObserver {
public:
    CompareObserver(CaptureObserver& reference, std::vector<ErrorAccumulator>& errors, std::vector<bool>& seen,
                    BodyTensorErrors& bodies)
        : mReference(reference), mErrors(errors), mSeen(seen), mBodies(bodies) {}
    void observe(const Node&, ValueId value, const Tensor& tensor) override {
        auto it = mReference.mTensors.find(value);
        if (it == mReference.mTensors.end() || !isFloat(tensor)) return;
        mErrors[static_cast<size_t>(value)].add(it->second, tensor);
        mSeen[static_cast<size_t>(value)] = true;
        mReference.mTensors.erase(it);
    }
    bool wantsNested(const std::string&) const override { return true; }
    void observeNested(const std::string& path, const Node&, const Tensor& tensor) override {
        mBodies.compare(path, tensor);
    }

private:
    CaptureObserver& mReference;
    std::vector<ErrorAccumulator>& mErrors;
    std::vector<bool>& mSeen;
    BodyTensorErrors& mBodies;
};

// On the FP32 run: runs each non-FP32 node a second time, on its own kernel instance, with only its own
// inputs (and outputs) simulated, and compares with the FP32 outputs the run produces. A planned body's layers are
// isolated the same way by an interceptor of their own (nested), over the body's graph built as the simulator
// builds it (node ids agree).
class IsolatingInterceptor final : public NodeInterceptor {
public:
    // The main graph's: its errors go to `errors` by value id.
    IsolatingInterceptor(const Graph& graph, const PrecisionPlan& plan, NodeInterceptor& simulator, int threads,
                         std::vector<ErrorAccumulator>& errors, std::vector<bool>& seen, BodyTensorErrors& bodies)
        : mGraph(graph),
          mPlan(plan),
          mSimulator(simulator),
          mThreads(threads),
          mErrors(&errors),
          mSeen(&seen),
          mBodies(bodies) {}
    // A body's, at `prefix` ("route/then_branch/"): its errors go to `bodies` by path.
    IsolatingInterceptor(const Graph& graph, const PrecisionPlan& plan, NodeInterceptor& simulator, int threads,
                         BodyTensorErrors& bodies, std::string prefix)
        : mGraph(graph),
          mPlan(plan),
          mSimulator(simulator),
          mThreads(threads),
          mBodies(bodies),
          mPrefix(std::move(prefix)) {}

    Status prepare() {
        mKernels.resize(mGraph.nodes().size());
        for (const Node& node : mGraph.nodes()) {
            if (mPlan.effective(node.id) == Precision::Fp32) continue;
            const int64_t opset = mGraph.opsetVersion(node.domain);
            const KernelRegistration* reg = findKernel(node.domain, node.opType, opset);
            if (!reg) return unsupported(nodeErrorMessage(node, "no kernel for this operator"));
            auto kernel = reg->create();
            QL_RETURN_IF_ERROR(kernel->init(KernelInit{node, mGraph, opset}));
            mKernels[static_cast<size_t>(node.id)] = std::move(kernel);
        }
        return Status::ok();
    }

    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override {
        Kernel* kernel = mKernels[static_cast<size_t>(node.id)].get();
        mIsolated.clear();
        if (!kernel) return Status::ok();
        std::vector<Tensor> simulated = inputs;
        QL_RETURN_IF_ERROR(mSimulator.beforeNode(node, simulated));
        std::vector<const Tensor*> pointers;
        for (const Tensor& t : simulated) pointers.push_back(t.empty() ? nullptr : &t);
        mIsolated.assign(node.outputs.size(), Tensor());
        KernelContext ctx(node, pointers, mIsolated, mThreads);
        QL_RETURN_IF_ERROR(kernel->compute(ctx));
        return mSimulator.afterNode(node, mIsolated);
    }

    Status afterNode(const Node& node, std::vector<Tensor>& outputs) override {
        const Node& mine = mGraph.node(node.id);  // the run's node of the same graph (a body's: built alike)
        for (size_t o = 0; o < mIsolated.size() && o < outputs.size() && o < mine.outputs.size(); ++o) {
            const ValueId value = mine.outputs[o];
            if (value == kNoId || !isFloat(outputs[o]) || !isFloat(mIsolated[o])) continue;
            if (!mErrors) {
                mBodies.add(mPrefix + mGraph.value(value).name, outputs[o], mIsolated[o]);
                continue;
            }
            (*mErrors)[static_cast<size_t>(value)].add(outputs[o], mIsolated[o]);
            (*mSeen)[static_cast<size_t>(value)] = true;
        }
        mIsolated.clear();
        return Status::ok();
    }

    // A planned body that quantizes something gets an isolating interceptor of its own, made on first use.
    NodeInterceptor* nested(const Node& node, const std::string& attribute, const Graph& body) override {
        const PrecisionPlan* plan = mPlan.body(node.name, attribute);
        NodeInterceptor* simulator = plan && quantizesBody(*plan) ? mSimulator.nested(node, attribute, body) : nullptr;
        const std::optional<NodeId> owner = mGraph.findNode(node.name);
        if (!simulator || !owner) return nullptr;
        const std::string key = bodyPathStep(node.name, attribute);
        auto it = mBodyInterceptors.find(key);
        if (it == mBodyInterceptors.end()) {
            auto model = buildSubgraphModel(mGraph, mGraph.node(*owner), attribute, OuterInitializers::Copied);
            if (!model || model->graph.nodes().size() != body.nodes().size()) return nullptr;  // built as the run does
            auto child = std::make_unique<BodyInterceptor>(std::move(model).value());
            child->interceptor = std::make_unique<IsolatingInterceptor>(child->model.graph, *plan, *simulator, mThreads,
                                                                        mBodies, mPrefix + key);
            if (!child->interceptor->prepare()) return nullptr;  // an operator without a kernel: not isolated
            it = mBodyInterceptors.emplace(key, std::move(child)).first;
        }
        return it->second->interceptor.get();
    }

private:
    struct BodyInterceptor {
        explicit BodyInterceptor(SubgraphModel m) : model(std::move(m)) {}
        SubgraphModel model;
        std::unique_ptr<IsolatingInterceptor> interceptor;
    };

    const Graph& mGraph;
    const PrecisionPlan& mPlan;
    NodeInterceptor& mSimulator;
    int mThreads;
    std::vector<ErrorAccumulator>* mErrors = nullptr;  // the main graph's; null in a body
    std::vector<bool>* mSeen = nullptr;
    BodyTensorErrors& mBodies;
    std::string mPrefix;                            // a body's path; empty for the main graph
    std::vector<std::unique_ptr<Kernel>> mKernels;  // per node; null for FP32 nodes
    std::vector<Tensor> mIsolated;                  // the current node's isolated outputs
    std::map<std::string, std::unique_ptr<BodyInterceptor>> mBodyInterceptors;  // by "node/attribute/"
};

// Counts of agreeing / correct top-1 predictions, turned into rates at the end.
struct AgreementCounter {
    int64_t samples = 0, agree = 0, correctFp32 = 0, correctQuant = 0;

    void add(const Tensor& fp32, const Tensor& quant, int64_t first, int64_t count,
             const std::vector<int64_t>& labels) {
        if (fp32.rank() == 0 || fp32.dim(0) != count || fp32.elementCount() == 0 || fp32.shape() != quant.shape())
            return;
        const std::vector<int64_t> a = topClasses(fp32), b = topClasses(quant);
        for (int64_t i = 0; i < count; ++i) {
            const size_t k = static_cast<size_t>(i);
            agree += a[k] == b[k];
            if (!labels.empty()) {
                const int64_t label = labels[static_cast<size_t>(first + i)];
                correctFp32 += a[k] == label;
                correctQuant += b[k] == label;
            }
        }
        samples += count;
    }

    OutputAgreement result(bool hasLabels) const {
        OutputAgreement out;
        out.samples = samples;
        if (samples == 0) return out;
        const double n = static_cast<double>(samples);
        out.top1Agreement = static_cast<double>(agree) / n;
        out.hasLabels = hasLabels;
        out.accuracyFp32 = static_cast<double>(correctFp32) / n;
        out.accuracyQuant = static_cast<double>(correctQuant) / n;
        return out;
    }
};

// A uniform sample of at most `cap` (fp32, quantized) element pairs of one output over all batches
// (reservoir sampling, fixed seed: the same run keeps the same pairs).
class OutputPairSampler {
public:
    explicit OutputPairSampler(size_t cap) : mCap(cap) { mPairs.reserve(std::min<size_t>(cap, 1 << 16)); }

    void add(const Tensor& fp32, const Tensor& quant) {
        if (mCap == 0 || !isFloatOutput(fp32) || fp32.shape() != quant.shape()) return;
        const std::vector<float> a = fp32.toFloats(), b = quant.toFloats();
        for (size_t i = 0; i < a.size(); ++i, ++mSeen) {
            if (mPairs.size() < mCap) {
                mPairs.push_back({a[i], b[i]});
                continue;
            }
            const uint64_t slot = std::uniform_int_distribution<uint64_t>(0, mSeen)(mRandom);
            if (slot < mCap) mPairs[slot] = {a[i], b[i]};
        }
    }

    std::vector<OutputPair> take() { return std::move(mPairs); }

private:
    size_t mCap;
    uint64_t mSeen = 0;
    std::mt19937_64 mRandom{20240607};
    std::vector<OutputPair> mPairs;
};

// Every float graph output of the whole plan against FP32, batch after batch: its error, its top-1 agreement
// (kept for class vectors only, known at the end) and what its FP32 rows look like (output_kind.h).
class OutputErrorAccumulator {
public:
    OutputErrorAccumulator(const Graph& graph, const AnalysisOptions& options) : mGraph(graph), mOptions(options) {}

    void add(const NamedTensors& fp32, const NamedTensors& quant, int64_t first, int64_t count) {
        for (size_t o = 0; o < fp32.size() && o < quant.size(); ++o) {
            if (!isFloatOutput(fp32[o].second) || !isFloatOutput(quant[o].second)) continue;
            const std::optional<ValueId> value = mGraph.findValue(fp32[o].first);
            if (!value) continue;
            Output& out = outputOf(*value);
            out.errors.add(fp32[o].second, quant[o].second);
            out.agreement.add(fp32[o].second, quant[o].second, first, count, o == 0 ? mOptions.labels : kNoLabels);
            out.rows.add(fp32[o].second);
            out.pairs.add(fp32[o].second, quant[o].second);
        }
    }

    // Once, at the end: the pairs are moved out.
    std::vector<OutputError> result() {
        std::vector<OutputError> errors;
        for (Output& out : mOutputs) {
            const bool first = !mGraph.outputs().empty() && out.value == mGraph.outputs().front();
            const bool groups = first && !mOptions.outputGroups.empty();
            const OutputKindDecision kind = outputKind(mGraph, out.value, groups, &out.rows);
            const bool labelled = first && !mOptions.labels.empty();
            OutputError error{out.value, kind.kind, kind.why, out.errors.metrics(), {}, out.pairs.take()};
            // Top-1 over anything but class scores is an arbitrary element (output_kind.h); labels say it is classes.
            if (kind.kind == OutputKind::ClassVector || labelled) error.agreement = out.agreement.result(labelled);
            errors.push_back(std::move(error));
        }
        return errors;
    }

private:
    struct Output {
        ValueId value = kNoId;
        ErrorAccumulator errors;
        AgreementCounter agreement;
        OutputRowProfile rows;
        OutputPairSampler pairs;
    };
    Output& outputOf(ValueId value) {
        for (Output& out : mOutputs)
            if (out.value == value) return out;
        mOutputs.push_back({value, {}, {}, {}, OutputPairSampler(mOptions.outputPairCap)});
        return mOutputs.back();
    }

    inline static const std::vector<int64_t> kNoLabels;
    const Graph& mGraph;
    const AnalysisOptions& mOptions;
    std::vector<Output> mOutputs;  // in the order the run returns them: graph order
};

std::vector<LayerError> rankLayers(const Graph& graph, const PrecisionPlan& plan,
                                   const std::vector<ErrorAccumulator>& errors, const std::vector<bool>& seen) {
    std::vector<LayerError> layers;
    for (const Node& node : graph.nodes())
        for (ValueId out : node.outputs)
            if (out != kNoId && seen[static_cast<size_t>(out)])
                layers.push_back({node.id, out, plan.effective(node.id), errors[static_cast<size_t>(out)].metrics()});
    std::stable_sort(layers.begin(), layers.end(),
                     [](const LayerError& a, const LayerError& b) { return a.metrics.sqnrDb < b.metrics.sqnrDb; });
    return layers;
}

}  // namespace

const OutputError* worstOutput(const AnalysisReport& report) {
    const OutputError* worst = nullptr;
    for (const OutputError& out : report.outputErrors)
        if (!worst || out.metrics.sqnrDb < worst->metrics.sqnrDb) worst = &out;
    return worst;
}

const char* analysisModeName(AnalysisMode mode) {
    return mode == AnalysisMode::Isolated ? "isolated" : "accumulated";
}

std::optional<AnalysisMode> parseAnalysisMode(std::string_view text) {
    if (text == "accumulated") return AnalysisMode::Accumulated;
    if (text == "isolated") return AnalysisMode::Isolated;
    return std::nullopt;
}

Result<AnalysisReport> analyzeQuantization(const Graph& graph, const PrecisionPlan& plan,
                                           const CalibrationResult& calibration, DataSource& data,
                                           const AnalysisOptions& options, const ProgressFn& progress,
                                           std::stop_token stop) {
    const Batching batch = batchingFor(graph, options.batchSize);
    int64_t total = data.sampleCount();
    if (options.maxSamples > 0) total = std::min(total, options.maxSamples);
    if (total == 0 || (batch.fixed && total < batch.size))
        return invalidArgument("the comparison needs at least " + std::to_string(batch.fixed ? batch.size : 1) +
                               " samples but the data holds " + std::to_string(total));
    if (!options.labels.empty() && static_cast<int64_t>(options.labels.size()) < total)
        return invalidArgument("the labels hold " + std::to_string(options.labels.size()) + " values for " +
                               std::to_string(total) + " samples");
    const int64_t usable = batch.usable(total);
    QL_ASSIGN_OR_RETURN(auto simulator, QuantSimulator::create(graph, plan, calibration));
    QL_ASSIGN_OR_RETURN(auto executor, Executor::create(graph, {options.threads}));
    std::vector<ErrorAccumulator> errors(graph.values().size());
    std::vector<bool> seen(graph.values().size(), false);
    BodyTensorErrors bodyErrors;
    IsolatingInterceptor isolating(graph, plan, *simulator, options.threads, errors, seen, bodyErrors);
    if (options.mode == AnalysisMode::Isolated) QL_RETURN_IF_ERROR(isolating.prepare());
    OutputErrorAccumulator outputErrors(graph, options);
    OutputGroupAccumulator outputGroups(options.outputGroups);
    for (int64_t first = 0; first < usable; first += batch.size) {
        if (stop.stop_requested()) return cancelled();
        const int64_t count = std::min(batch.size, usable - first);
        QL_ASSIGN_OR_RETURN(NamedTensors inputs, data.read(first, count));
        CaptureObserver capture(bodyErrors);
        RunOptions fp32Run{.stop = stop};
        if (options.mode == AnalysisMode::Accumulated)
            fp32Run.observer = &capture;
        else
            fp32Run.interceptor = &isolating;
        QL_ASSIGN_OR_RETURN(NamedTensors fp32, executor->run(inputs, fp32Run));
        CompareObserver compare(capture, errors, seen, bodyErrors);
        RunOptions quantRun{.interceptor = simulator.get(), .stop = stop};
        if (options.mode == AnalysisMode::Accumulated) quantRun.observer = &compare;
        QL_ASSIGN_OR_RETURN(NamedTensors quant, executor->run(inputs, quantRun));
        bodyErrors.endBatch();
        outputErrors.add(fp32, quant, first, count);
        if (!fp32.empty()) outputGroups.add(fp32[0].second, quant[0].second);
        if (progress) progress(first + count, usable);
    }
    AnalysisReport report;
    report.mode = options.mode;
    report.samples = usable;
    report.layers = rankLayers(graph, plan, errors, seen);
    report.bodyLayers = bodyErrors.layers(graph, plan);
    report.outputErrors = outputErrors.result();
    if (!report.outputErrors.empty() && !graph.outputs().empty() &&
        report.outputErrors.front().output == graph.outputs().front()) {
        report.outputs = report.outputErrors.front().agreement;
        report.outputPairs = report.outputErrors.front().pairs;
    }
    report.outputGroups = outputGroups.result();
    return report;
}

}  // namespace ql
