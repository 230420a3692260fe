#include "core/exec/executor.h"

#include "core/exec/kernels/elementwise_util.h"

#include <omp.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <mutex>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/exec/kernels/onednn_layer.h"
#include "core/exec/kernels/registry.h"
#include "core/exec/layout.h"
#include "core/model/tensor_data.h"

namespace ql {

namespace {

Shape shapeOf(const Initializer& init) {
    return Shape(init.dims.begin(), init.dims.end());
}

// Every run allocates and frees the same activation buffers. With glibc's defaults, blocks of a few MB are
// mmap'ed and unmapped each time, and the page faults cost as much as a depthwise network's arithmetic.
// Keep such blocks in the heap (up to glibc's 32 MB maximum) and the heap from being trimmed eagerly.
void keepActivationMemoryMapped() {
#ifdef __GLIBC__
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
        mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    });
#endif
}

}  // namespace

Executor::~Executor() = default;

Result<std::unique_ptr<Executor>> Executor::create(const Graph& graph, const ExecutorOptions& options) {
    keepActivationMemoryMapped();
    std::unique_ptr<Executor> executor(new Executor(graph, options));
    try {
        QL_RETURN_IF_ERROR(executor->prepare());
    } catch (const std::bad_alloc&) {
        return ioError("out of memory while preparing the executor");
    } catch (const std::exception& e) {
        return internalError(std::string("while preparing the executor: ") + e.what());
    }
    return executor;
}

void Executor::setThreads(int threads) {
    mOptions.threads = std::max(1, threads);
}

Status Executor::prepare() {
    mOptions.threads = std::max(1, mOptions.threads);
    const auto& values = mGraph.values();
    mConstants.assign(values.size(), Tensor());
    for (size_t v = 0; v < values.size(); ++v) {
        const Initializer* init = mGraph.initializerOf(static_cast<ValueId>(v));
        if (!init) continue;
        if (init->dtype == DataType::String) continue;
        if (!init->rawBytes.empty()) {
            mConstants[v] = Tensor::borrowed(init->dtype, shapeOf(*init), init->rawBytes.data());
        } else {
            QL_ASSIGN_OR_RETURN(auto bytes, tensorBytes(*init));
            Tensor t(init->dtype, shapeOf(*init));
            std::copy(bytes.begin(), bytes.end(), static_cast<std::byte*>(t.rawData()));
            mConstants[v] = std::move(t);
        }
    }
    mKernels.clear();
    mNodeSteps.clear();
    for (const Node& node : mGraph.nodes()) {
        const int64_t opset = mGraph.opsetVersion(node.domain);
        const KernelRegistration* reg = findKernel(node.domain, node.opType, opset);
        if (!reg)
            return unsupported(nodeErrorMessage(
                node, "operator " + (node.domain.empty() ? std::string() : node.domain + ".") + node.opType +
                          " (opset " + std::to_string(opset) +
                          ") is not supported by the QuantLens executor; the model can be inspected and linted "
                          "but not run"));
        auto kernel = reg->create();
        QL_RETURN_IF_ERROR(kernel->init(KernelInit{node, mGraph, opset}));
        if (auto* caching = dynamic_cast<WeightCachingKernel*>(kernel.get()))
            caching->setCacheWeights(mOptions.cacheWeights);
        Step step{&node, kernel.get(), node.inputs, node.outputs, {}, {node.id}, 0};
        QL_RETURN_IF_ERROR(addOuterScopeInputs(*kernel, step));
        mNodeSteps.push_back(std::move(step));
        mKernels.push_back(std::move(kernel));
    }
    mPlan.clear();
    for (const Step& step : mNodeSteps) mPlan.push_back(&step);
    return mOptions.fuse ? prepareFusion() : Status::ok();
}

Status Executor::addOuterScopeInputs(const Kernel& kernel, Step& step) const {
    for (const std::string& name : kernel.outerScopeInputs()) {
        const auto id = mGraph.findValue(name);
        if (!id)
            return invalidModel(nodeErrorMessage(
                *step.node, "a subgraph reads '" + name + "', which the enclosing graph does not define"));
        step.inputs.push_back(*id);
    }
    return Status::ok();
}

Status Executor::bindInputs(const NamedTensors& inputs, std::vector<Tensor>& values) const {
    for (const auto& [name, tensor] : inputs) {
        const auto id = mGraph.findValue(name);
        if (!id || !mGraph.value(*id).isGraphInput)
            return invalidArgument("'" + name + "' is not an input of the model");
        const Value& value = mGraph.value(*id);
        if (value.initializer >= 0 && value.type.dtype == DataType::Undefined) continue;
        if (value.type.dtype != DataType::Undefined && tensor.dtype() != value.type.dtype)
            return invalidArgument("input '" + name + "' has type " + dataTypeName(tensor.dtype()) +
                                   ", but the model expects " + dataTypeName(value.type.dtype));
        if (value.type.hasShape) {
            bool match = value.type.dims.size() == tensor.rank();
            for (size_t d = 0; match && d < tensor.rank(); ++d)
                if (value.type.dims[d].known() && value.type.dims[d].size != tensor.dim(d)) match = false;
            if (!match)
                return invalidArgument("input '" + name + "' has shape " + shapeString(tensor.shape()) +
                                       ", but the model expects " + value.type.shapeString());
        }
        values[static_cast<size_t>(*id)] = tensor;
    }
    for (ValueId id : mGraph.inputs())
        if (values[static_cast<size_t>(id)].empty())
            return invalidArgument("missing input '" + mGraph.value(id).name + "' (" +
                                   dataTypeName(mGraph.value(id).type.dtype) + " " +
                                   mGraph.value(id).type.shapeString() + ")");
    return Status::ok();
}

bool Executor::splitsStep(const Step& step, const RunOptions& options) const {
    if (step.nodes.size() <= 1) return false;  // a single node
    if (options.observer &&
        std::any_of(step.hidden.begin(), step.hidden.end(), [&](ValueId v) { return options.observer->wants(v); }))
        return true;
    if (!options.interceptor) return false;
    size_t provided = 0;
    for (NodeId n : step.nodes) {
        const Node& node = mGraph.node(n);
        if (options.interceptor->provides(node))
            ++provided;
        else if (options.interceptor->intercepts(node))
            return true;
    }
    return provided != 0 && provided != step.nodes.size();
}

std::vector<const Executor::Step*> Executor::planFor(const RunOptions& options) const {
    std::vector<const Step*> plan;
    if (!mOptions.fuse) {
        for (const Step& step : mNodeSteps) plan.push_back(&step);
        return plan;
    }
    if (!options.observer && !options.interceptor) return mPlan;
    for (const Step* step : mPlan) {
        if (!splitsStep(*step, options)) {
            plan.push_back(step);
            continue;
        }
        for (NodeId n : step->nodes) plan.push_back(&mNodeSteps[static_cast<size_t>(n)]);
    }
    return plan;
}

Status Executor::runStep(const Step& step, const RunOptions& options, std::vector<Tensor>& values) {
    const Node& node = *step.node;
    std::vector<Tensor> outputs(step.outputs.size());
    if (options.interceptor && options.interceptor->provides(node)) {  // a whole step: splitsStep saw to it
        for (size_t o = 0; o < step.outputs.size(); ++o)
            if (step.outputs[o] != kNoId) outputs[o] = options.interceptor->providedValue(step.outputs[o]);
        return storeOutputs(step, options, outputs, values);
    }
    const bool intercepted = options.interceptor && step.nodes.size() <= 1 && options.interceptor->intercepts(node);
    std::vector<Tensor> nodeInputs;
    std::vector<const Tensor*> inputPtrs;
    for (size_t i = 0; i < step.inputs.size(); ++i) {
        const ValueId in = step.inputs[i];
        Tensor* t = in == kNoId ? nullptr : &values[static_cast<size_t>(in)];
        // Converted once and kept: later plain readers of the value find it converted.
        if (t && !t->isPlain() && (intercepted || !step.readsLayout(i))) *t = onednn::toPlain(*t);
        inputPtrs.push_back(t && !t->empty() ? t : nullptr);
    }
    if (intercepted) {
        for (const Tensor* t : inputPtrs) nodeInputs.push_back(t ? *t : Tensor());
        QL_RETURN_IF_ERROR(options.interceptor->beforeNode(node, nodeInputs));
        for (size_t i = 0; i < nodeInputs.size(); ++i) inputPtrs[i] = nodeInputs[i].empty() ? nullptr : &nodeInputs[i];
    }
    KernelContext ctx(node, inputPtrs, outputs, mOptions.threads);
    ctx.setRunOptions(&options);
    QL_RETURN_IF_ERROR(step.kernel->compute(ctx));
    if (intercepted) {
        for (Tensor& t : outputs) t = onednn::toPlain(t);
        QL_RETURN_IF_ERROR(options.interceptor->afterNode(node, outputs));
    }
    return storeOutputs(step, options, outputs, values);
}

Status Executor::storeOutputs(const Step& step, const RunOptions& options, std::vector<Tensor>& outputs,
                              std::vector<Tensor>& values) {
    const Node& node = *step.node;
    for (size_t o = 0; o < step.outputs.size(); ++o) {
        const ValueId out = step.outputs[o];
        if (out == kNoId) continue;
        if (outputs[o].empty() && outputs[o].dtype() == DataType::Undefined)
            return internalError(nodeErrorMessage(node, "kernel did not produce output " + std::to_string(o)));
        // A kernel that computes float16 in float must round its result: a strongly typed model's float16 islands
        // are what `run --simulate` predicts only when every float16 tensor holds float16 values.
        if (const DataType declared = mGraph.value(out).type.dtype;
            isHalfType(declared) && outputs[o].dtype() == DataType::Float)
            outputs[o] = fromFloatTensor(onednn::toPlain(outputs[o]), declared);
        if (options.observer && options.observer->wants(out))
            options.observer->observe(mGraph.node(mGraph.value(out).producer), out,
                                      options.observer->acceptsLayouts() ? outputs[o] : onednn::toPlain(outputs[o]));
        values[static_cast<size_t>(out)] = std::move(outputs[o]);
    }
    return Status::ok();
}

Result<NamedTensors> Executor::run(const NamedTensors& inputs, const RunOptions& options) {
    try {
        std::vector<Tensor> values = mConstants;
        QL_RETURN_IF_ERROR(bindInputs(inputs, values));
        omp_set_num_threads(mOptions.threads);
        const std::vector<const Step*> plan = planFor(options);
        // Per value: the last step reading it, after which it is freed (graph outputs are kept).
        std::vector<size_t> lastUse(values.size(), plan.size());
        for (size_t i = 0; i < plan.size(); ++i)
            for (ValueId in : plan[i]->inputs)
                if (in != kNoId) lastUse[static_cast<size_t>(in)] = i;
        for (size_t i = 0; i < plan.size(); ++i) {
            if (options.stop.stop_requested()) return cancelled();
            QL_RETURN_IF_ERROR(runStep(*plan[i], options, values));
            for (ValueId in : plan[i]->inputs) {
                if (in == kNoId || lastUse[static_cast<size_t>(in)] != i || mGraph.value(in).isGraphOutput) continue;
                values[static_cast<size_t>(in)] = mConstants[static_cast<size_t>(in)];
            }
        }
        NamedTensors outputs;
        for (ValueId id : mGraph.outputs())
            outputs.emplace_back(mGraph.value(id).name, onednn::toPlain(values[static_cast<size_t>(id)]));
        return outputs;
    } catch (const std::bad_alloc&) {
        return ioError("out of memory while running the model (try a smaller batch)");
    } catch (const std::exception& e) {
        return internalError(std::string("while running the model: ") + e.what());
    }
}

}  // namespace ql
