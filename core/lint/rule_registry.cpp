// The lint rules, one row each (like the kernel registry): order here is the order findings are produced in
// before sorting, so keep related rules together.
#include "core/lint/rule_registry.h"

#include "core/lint/rules/rules.h"

namespace ql {

namespace {

using RuleFactory = std::unique_ptr<LintRule> (*)();

constexpr RuleFactory kRuleTable[] = {
    // Build failures: operators and Q/DQ the parser rejects.
    &rules::makeUnsupportedOpRule,
    &rules::makeOpsetRangeRule,
    &rules::makeQdqNonsymmetricRule,
    &rules::makeQdqTypeRule,
    &rules::makeQdqBiasRule,
    &rules::makeQdqScalePositiveRule,
    &rules::makeQdqActivationPerChannelRule,
    &rules::makeQdqAxisMismatchRule,
    &rules::makeConvTransposeWeightAxisRule,
    // Builder precision flags (the trtexec command, or a model that relies on them) the target removed or forbids.
    &rules::makePrecisionFlagsRule,
    &rules::makeFloatModelFp32Rule,
    // Kernels a strongly typed TensorRT 11 build does not find.
    &rules::makeStrongFp16GroupedConvRule,
    // Layers without an INT8 implementation.
    &rules::makeGroupedConvAlignmentRule,
    &rules::makeInstanceNormRule,
    &rules::makeSoftmaxNormInt8Rule,
    &rules::makeMissingScaleRule,
    // Q/DQ placement that blocks fusions.
    &rules::makeQdqBlocksBnFusionRule,
    &rules::makeResidualAddRule,
    &rules::makeConcatScalesRule,
    &rules::makeRequantizeRule,
    &rules::makeSharedScaleRangeRule,
    &rules::makeBoundedRangeCodesRule,
    &rules::makeResizeQdqRule,
    &rules::makeQdqSplitsFusionRule,
    &rules::makeMhaFusionRule,
    // Performance and numerics.
    &rules::makeInt8ChannelAlignmentRule,
    &rules::makeInt8GemvRule,
    &rules::makeInt8SmallLayerRule,
    &rules::makeInt8AttentionShapeRule,
    &rules::makeResizeInterpolationInt8Rule,
    &rules::makeInt64InitializerRule,
    // Latency on the GPU lint was given (lint --gpu): the predicted engine's islands and layers that do not pay.
    &rules::makeInt8IslandSlowerRule,
    &rules::makeFp16IslandReformatsRule,
    &rules::makeInt8NoGainRule,
    // The calibration (lint --calib, calibrate, compare): ranges that cost accuracy.
    &rules::makeCalibClippingRule,
    &rules::makeCalibMethodGapRule,
    &rules::makeCalibDeadRangeRule,
    &rules::makeCalibNonFiniteRule,
    &rules::makeCalibFewSamplesRule,
    &rules::makeCalibOutlierChannelsRule,
};

}  // namespace

const std::vector<std::unique_ptr<LintRule>>& lintRules() {
    static const std::vector<std::unique_ptr<LintRule>> rules = [] {
        std::vector<std::unique_ptr<LintRule>> out;
        for (RuleFactory make : kRuleTable) out.push_back(make());
        return out;
    }();
    return rules;
}

const LintRule* findLintRule(std::string_view id) {
    for (const auto& rule : lintRules())
        if (rule->info().id == id) return rule.get();
    return nullptr;
}

}  // namespace ql
