// The Executor's fused plan (see core/exec/fusion.h): groups of a Conv and the nodes folded into it run as
// one step, and convolution outputs whose every reader understands oneDNN layouts stay in them.
#include <algorithm>

#include "core/exec/elementwise_chain.h"
#include "core/exec/executor.h"
#include "core/exec/fusion.h"
#include "core/exec/kernels/batch_normalization.h"
#include "core/exec/kernels/conv.h"
#include "core/exec/kernels/registry.h"
#include "core/exec/layout_activation.h"
#include "core/exec/layout_concat.h"
#include "core/exec/layout_ops.h"

namespace ql {

namespace {

// Whether a group would hide a value that a subgraph reads from outer scope: such reads are not consumers in
// the Graph, so fusion does not see them.
bool hidesOuterScopeRead(const std::vector<ValueId>& hidden, const std::vector<bool>& outerRead) {
    return std::any_of(hidden.begin(), hidden.end(), [&](ValueId v) { return outerRead[static_cast<size_t>(v)]; });
}

}  // namespace

Status Executor::prepareFusion() {
    std::vector<bool> outerRead(mGraph.values().size(), false);
    for (const Step& step : mNodeSteps)
        for (size_t i = step.node->inputs.size(); i < step.inputs.size(); ++i)
            outerRead[static_cast<size_t>(step.inputs[i])] = true;
    auto groups = findConvFusions(mGraph);
    const auto normRelu = findNormReluFusions(mGraph, groups);
    groups.insert(groups.end(), normRelu.begin(), normRelu.end());
    std::erase_if(groups, [&](const FusionGroup& g) { return hidesOuterScopeRead(g.hidden, outerRead); });
    auto chains = findElementwiseChains(mGraph, groups);
    std::erase_if(chains, [&](const ElementwiseChain& c) { return hidesOuterScopeRead(c.hidden, outerRead); });
    mGroupSteps.clear();
    mGroupKernels.clear();
    mGroupSteps.reserve(groups.size() + chains.size());  // stepOfNode points into it
    QL_RETURN_IF_ERROR(wrapConcats());
    wrapActivations();
    std::vector<const Step*> stepOfNode(mNodeSteps.size());
    for (size_t n = 0; n < mNodeSteps.size(); ++n) {
        stepOfNode[n] = &mNodeSteps[n];
        if (auto* aware = dynamic_cast<LayoutAwareKernel*>(mNodeSteps[n].kernel))
            mNodeSteps[n].layoutInputs = aware->layoutInputs();
    }
    for (const FusionGroup& group : groups) {
        const Node& anchor = mGraph.node(group.anchor);
        const int64_t opset = mGraph.opsetVersion(anchor.domain);
        auto kernel = findKernel(anchor.domain, anchor.opType, opset)->create();
        auto* conv = dynamic_cast<ConvKernel*>(kernel.get());
        auto* norm = dynamic_cast<BatchNormalizationKernel*>(kernel.get());
        if (!conv && !norm) continue;
        QL_RETURN_IF_ERROR(kernel->init(KernelInit{anchor, mGraph, opset}));
        if (conv) {
            conv->setFusion(ConvFusion{group.postOps, group.inputGate != kNoId});
            conv->setCacheWeights(mOptions.cacheWeights);
        } else {
            norm->setFusedRelu(true);  // findNormReluFusions: the one post-op is the Relu
        }
        const uint32_t layoutInputs = dynamic_cast<LayoutAwareKernel&>(*kernel).layoutInputs();
        Step step{&anchor, kernel.get(), anchor.inputs, {group.output}, group.hidden, {anchor.id}, layoutInputs};
        step.nodes.insert(step.nodes.end(), group.fused.begin(), group.fused.end());
        std::sort(step.nodes.begin(), step.nodes.end());  // graph order, for running them one by one
        if (group.gatedInput != kNoId) step.inputs[0] = group.gatedInput;
        if (group.sumOperand != kNoId) {
            step.inputs.resize(kConvSumInput, kNoId);
            step.inputs.push_back(group.sumOperand);
        }
        if (group.inputGate != kNoId) {
            step.inputs.resize(kConvGateInput, kNoId);
            step.inputs.push_back(group.inputGate);
        }
        mGroupSteps.push_back(std::move(step));
        mGroupKernels.push_back(std::move(kernel));
        for (NodeId n : mGroupSteps.back().nodes) stepOfNode[static_cast<size_t>(n)] = &mGroupSteps.back();
    }
    for (const ElementwiseChain& chain : chains) {
        auto kernel = std::make_unique<ElementwiseChainKernel>(mGraph, chain);
        mGroupSteps.push_back(Step{&mGraph.node(chain.nodes.front()),
                                   kernel.get(),
                                   {chain.input},
                                   {chain.output},
                                   chain.hidden,
                                   chain.nodes,
                                   0});
        mGroupKernels.push_back(std::move(kernel));
        for (NodeId n : chain.nodes) stepOfNode[static_cast<size_t>(n)] = &mGroupSteps.back();
    }
    // A group runs where its last node was: every input it reads is produced by then.
    mPlan.clear();
    for (size_t n = 0; n < stepOfNode.size(); ++n)
        if (stepOfNode[n]->nodes.back() == static_cast<NodeId>(n)) mPlan.push_back(stepOfNode[n]);
    allowLayoutOutputs(stepOfNode, mPlan);
    // A run that observes a group's hidden values runs the group's nodes one by one (planFor): they keep
    // layouts among themselves too, so observing costs the activation passes, not reorders to NCHW.
    std::vector<const Step*> members;
    for (const Step& group : mGroupSteps)
        for (NodeId n : group.nodes) {
            stepOfNode[static_cast<size_t>(n)] = &mNodeSteps[static_cast<size_t>(n)];
            members.push_back(stepOfNode[static_cast<size_t>(n)]);
        }
    allowLayoutOutputs(stepOfNode, members);
    return Status::ok();
}

void Executor::wrapActivations() {
    for (Step& step : mNodeSteps) {
        const auto ops = activationPostOps(mGraph, *step.node);
        const auto op = ops ? LayoutActivationKernel::exactOp(*ops) : std::nullopt;
        if (!op || step.outputs.size() != 1) continue;
        auto kernel = std::make_unique<LayoutActivationKernel>(*step.kernel, *op);
        step.kernel = kernel.get();
        mGroupKernels.push_back(std::move(kernel));
    }
}

Status Executor::wrapConcats() {
    for (Step& step : mNodeSteps) {
        const Node& node = *step.node;
        if (node.opType != "Concat" || !(node.domain.empty() || node.domain == "ai.onnx")) continue;
        auto kernel = std::make_unique<LayoutConcatKernel>(*step.kernel);
        QL_RETURN_IF_ERROR(kernel->init(KernelInit{node, mGraph, mGraph.opsetVersion(node.domain)}));
        step.kernel = kernel.get();
        mGroupKernels.push_back(std::move(kernel));
    }
    return Status::ok();
}

void Executor::allowLayoutOutputs(const std::vector<const Step*>& stepOfNode, const std::vector<const Step*>& steps) {
    auto readsInLayout = [&](ValueId v, NodeId consumer) {
        const Step& reader = *stepOfNode[static_cast<size_t>(consumer)];
        bool found = false;
        for (size_t i = 0; i < reader.inputs.size(); ++i) {
            if (reader.inputs[i] != v) continue;
            if (!reader.readsLayout(i)) return false;
            found = true;
        }
        return found;
    };
    for (const Step* step : steps) {
        auto* aware = dynamic_cast<LayoutAwareKernel*>(step->kernel);
        if (!aware || step->outputs.empty() || step->outputs[0] == kNoId) continue;
        const ValueId out = step->outputs[0];
        const Value& value = mGraph.value(out);
        const bool keep = !value.isGraphOutput && !value.consumers.empty() &&
                          std::all_of(value.consumers.begin(), value.consumers.end(),
                                      [&](NodeId c) { return readsInLayout(out, c); });
        aware->setKeepLayout(keep);
    }
}

}  // namespace ql
