#include "core/exec/kernels/scan.h"

#include "core/exec/executor.h"
#include "core/exec/kernels/control_flow_util.h"
#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

// An attribute list of `count` entries, `fallback` each when the attribute is absent.
Result<std::vector<int64_t>> listAttribute(const KernelInit& info, const std::string& name, size_t count,
                                           int64_t fallback) {
    std::vector<int64_t> values = info.node.intsAttribute(name);
    if (!info.node.attribute(name)) values.assign(count, fallback);
    if (values.size() != count)
        return info.fail("'" + name + "' has " + std::to_string(values.size()) + " entries; it needs " +
                         std::to_string(count));
    return values;
}

}  // namespace

Status ScanKernel::init(const KernelInit& info) {
    const Node& node = info.node;
    mBatched = info.opset < 9;
    mFirstState = mBatched ? 1 : 0;
    const int64_t scanInputs = node.intAttribute("num_scan_inputs", -1);
    if (scanInputs < 1 || static_cast<size_t>(scanInputs) + mFirstState > node.inputs.size())
        return info.fail("'num_scan_inputs' must be between 1 and the number of inputs");
    mScanInputs = static_cast<size_t>(scanInputs);
    mStates = node.inputs.size() - mFirstState - mScanInputs;
    if (node.outputs.size() < mStates) return info.fail("needs an output for every state value");
    mScanOutputs = node.outputs.size() - mStates;
    QL_ASSIGN_OR_RETURN(mBody, Subgraph::create(info, "body"));
    if (mBody->formalInputCount() != mStates + mScanInputs || mBody->outputCount() != mStates + mScanOutputs)
        return info.fail("the body takes " + std::to_string(mBody->formalInputCount()) + " inputs and gives " +
                         std::to_string(mBody->outputCount()) + " outputs; it must take " +
                         std::to_string(mStates + mScanInputs) + " and give " + std::to_string(mStates + mScanOutputs));
    const std::string inputDirections = mBatched ? "directions" : "scan_input_directions";
    QL_ASSIGN_OR_RETURN(mInputDirections, listAttribute(info, inputDirections, mScanInputs, 0));
    QL_ASSIGN_OR_RETURN(mInputAxes, listAttribute(info, "scan_input_axes", mScanInputs, 0));
    QL_ASSIGN_OR_RETURN(mOutputAxes, listAttribute(info, "scan_output_axes", mScanOutputs, 0));
    QL_ASSIGN_OR_RETURN(mOutputDirections, listAttribute(info, "scan_output_directions", mScanOutputs, 0));
    Subgraph* body[] = {mBody.get()};
    mOuterScope = Subgraph::bindOuterScope(body, node.inputs.size());
    return Status::ok();
}

Result<int64_t> ScanKernel::sequenceLength(const KernelContext& ctx, const std::vector<Tensor>& inputs) const {
    int64_t length = -1;
    for (size_t j = 0; j < inputs.size(); ++j) {
        const auto axis = normalizeAxis(mInputAxes[j], static_cast<int64_t>(inputs[j].rank()));
        if (!axis) return ctx.fail("scan input " + std::to_string(j) + " has no axis " + std::to_string(mInputAxes[j]));
        const int64_t n = inputs[j].dim(static_cast<size_t>(*axis));
        if (length >= 0 && n != length)
            return ctx.fail("scan inputs have different lengths (" + std::to_string(length) + " and " +
                            std::to_string(n) + ") along their scan axes");
        length = n;
    }
    return length;
}

Result<std::vector<Tensor>> ScanKernel::scan(KernelContext& ctx, Pass pass, int64_t paddedSteps) {
    std::vector<int64_t> axes(mScanInputs);
    for (size_t j = 0; j < mScanInputs; ++j)
        axes[j] = *normalizeAxis(mInputAxes[j], static_cast<int64_t>(pass.inputs[j].rank()));
    std::vector<std::vector<Tensor>> parts(mScanOutputs);
    const RunOptions* run = ctx.runOptions();
    for (int64_t t = 0; t < pass.steps; ++t) {
        if (run && run->stop.stop_requested()) return cancelled();
        std::vector<Tensor> inputs = pass.states;
        for (size_t j = 0; j < mScanInputs; ++j)
            inputs.push_back(sliceAlong(pass.inputs[j], axes[j], mInputDirections[j] ? pass.steps - 1 - t : t));
        QL_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, mBody->run(ctx, std::move(inputs)));
        for (size_t s = 0; s < mStates; ++s) pass.states[s] = std::move(outputs[s]);
        for (size_t k = 0; k < mScanOutputs; ++k) parts[k].push_back(std::move(outputs[mStates + k]));
    }
    std::vector<Tensor> results = std::move(pass.states);
    for (size_t k = 0; k < mScanOutputs; ++k) {
        for (int64_t t = pass.steps; t < paddedSteps && !parts[k].empty(); ++t)  // opset 8: past sequence_lens
            parts[k].push_back(Tensor::zeros(parts[k][0].dtype(), parts[k][0].shape()));
        const int64_t rank = parts[k].empty() ? 0 : static_cast<int64_t>(parts[k][0].rank());
        const auto axis = normalizeAxis(mOutputAxes[k], rank + 1);
        if (!axis)
            return ctx.fail("scan output " + std::to_string(k) + " has no axis " + std::to_string(mOutputAxes[k]));
        QL_ASSIGN_OR_RETURN(Tensor stacked,
                            stackAlong(ctx, parts[k], *axis, mOutputDirections[k] != 0, mBody->outputType(mStates + k),
                                       "scan output " + std::to_string(k)));
        results.push_back(std::move(stacked));
    }
    return results;
}

Status ScanKernel::compute(KernelContext& ctx) {
    if (mBatched) return computeBatched(ctx);
    Pass pass;
    for (size_t i = 0; i < mStates + mScanInputs; ++i) {
        if (!ctx.hasInput(i)) return ctx.fail("input " + std::to_string(i) + " is missing");
        (i < mStates ? pass.states : pass.inputs).push_back(ctx.input(i));
    }
    QL_ASSIGN_OR_RETURN(pass.steps, sequenceLength(ctx, pass.inputs));
    const int64_t steps = pass.steps;
    QL_ASSIGN_OR_RETURN(std::vector<Tensor> results, scan(ctx, std::move(pass), steps));
    for (size_t o = 0; o < results.size() && o < ctx.outputCount(); ++o) ctx.setOutput(o, std::move(results[o]));
    return Status::ok();
}

// Opset 8: one scan per batch entry (axis 0 of every state and scan input), results stacked back along axis 0.
Status ScanKernel::computeBatched(KernelContext& ctx) {
    for (size_t i = 1; i < 1 + mStates + mScanInputs; ++i)
        if (!ctx.hasInput(i) || ctx.input(i).rank() < (i <= mStates ? 1u : 2u))
            return ctx.fail("input " + std::to_string(i) + " needs a batch axis (and a sequence axis for scan inputs)");
    const int64_t batch = ctx.input(1).dim(0), length = ctx.input(1 + mStates).dim(1);
    std::vector<int64_t> lengths(static_cast<size_t>(batch), length);
    if (ctx.hasInput(0)) {
        QL_ASSIGN_OR_RETURN(lengths, readInt64Input(ctx, 0));
    }
    if (lengths.size() != static_cast<size_t>(batch)) return ctx.fail("sequence_lens needs one length per batch entry");
    std::vector<std::vector<Tensor>> perBatch(ctx.outputCount());
    for (int64_t b = 0; b < batch; ++b) {
        Pass pass;
        for (size_t i = 1; i < 1 + mStates + mScanInputs; ++i)
            (i <= mStates ? pass.states : pass.inputs).push_back(sliceAlong(ctx.input(i), 0, b));
        pass.steps = lengths[static_cast<size_t>(b)];
        if (pass.steps < 0 || pass.steps > length) return ctx.fail("a sequence length is outside [0, sequence axis]");
        QL_ASSIGN_OR_RETURN(std::vector<Tensor> results, scan(ctx, std::move(pass), length));
        for (size_t o = 0; o < results.size() && o < perBatch.size(); ++o) perBatch[o].push_back(std::move(results[o]));
    }
    for (size_t o = 0; o < perBatch.size(); ++o) {
        QL_ASSIGN_OR_RETURN(Tensor stacked, stackAlong(ctx, perBatch[o], 0, false, mBody->outputType(o),
                                                       "output " + std::to_string(o)));
        ctx.setOutput(o, std::move(stacked));
    }
    return Status::ok();
}

}  // namespace ql
