#include "core/exec/executor.h"

#include <omp.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <mutex>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "core/exec/kernels/registry.h"
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
    mLastUse.assign(values.size(), -1);
    mKernels.clear();
    for (const Node& node : mGraph.nodes()) {
        for (ValueId in : node.inputs)
            if (in != kNoId) mLastUse[static_cast<size_t>(in)] = node.id;
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
        mKernels.push_back(std::move(kernel));
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

Result<NamedTensors> Executor::run(const NamedTensors& inputs, const RunOptions& options) {
    try {
        std::vector<Tensor> values = mConstants;
        QL_RETURN_IF_ERROR(bindInputs(inputs, values));
        omp_set_num_threads(mOptions.threads);
        std::vector<Tensor> nodeInputs;
        std::vector<const Tensor*> inputPtrs;
        std::vector<Tensor> nodeOutputs;
        for (const Node& node : mGraph.nodes()) {
            if (options.stop.stop_requested()) return cancelled();
            inputPtrs.clear();
            if (options.interceptor) {
                nodeInputs.clear();
                for (ValueId in : node.inputs)
                    nodeInputs.push_back(in == kNoId ? Tensor() : values[static_cast<size_t>(in)]);
                QL_RETURN_IF_ERROR(options.interceptor->beforeNode(node, nodeInputs));
                for (const Tensor& t : nodeInputs) inputPtrs.push_back(t.empty() ? nullptr : &t);
            } else {
                for (ValueId in : node.inputs) {
                    const Tensor* t = in == kNoId ? nullptr : &values[static_cast<size_t>(in)];
                    inputPtrs.push_back(t && !t->empty() ? t : nullptr);
                }
            }
            nodeOutputs.assign(node.outputs.size(), Tensor());
            KernelContext ctx(node, inputPtrs, nodeOutputs, mOptions.threads);
            QL_RETURN_IF_ERROR(mKernels[static_cast<size_t>(node.id)]->compute(ctx));
            if (options.interceptor) QL_RETURN_IF_ERROR(options.interceptor->afterNode(node, nodeOutputs));
            for (size_t o = 0; o < node.outputs.size(); ++o) {
                const ValueId out = node.outputs[o];
                if (out == kNoId) continue;
                if (nodeOutputs[o].empty() && nodeOutputs[o].dtype() == DataType::Undefined)
                    return internalError(nodeErrorMessage(node, "kernel did not produce output " + std::to_string(o)));
                if (options.observer) options.observer->observe(node, out, nodeOutputs[o]);
                values[static_cast<size_t>(out)] = std::move(nodeOutputs[o]);
            }
            // Free what no later node reads (graph outputs are kept).
            for (ValueId in : node.inputs) {
                if (in == kNoId || mLastUse[static_cast<size_t>(in)] != node.id) continue;
                if (mGraph.value(in).isGraphOutput) continue;
                values[static_cast<size_t>(in)] = mConstants[static_cast<size_t>(in)];
            }
        }
        NamedTensors outputs;
        for (ValueId id : mGraph.outputs())
            outputs.emplace_back(mGraph.value(id).name, values[static_cast<size_t>(id)]);
        return outputs;
    } catch (const std::bad_alloc&) {
        return ioError("out of memory while running the model (try a smaller batch)");
    } catch (const std::exception& e) {
        return internalError(std::string("while running the model: ") + e.what());
    }
}

}  // namespace ql
