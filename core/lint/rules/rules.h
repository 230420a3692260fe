#pragma once
// Factories of the lint rules, one rule per file in this folder; rule_registry.cpp lists them in one table.
#include <memory>

#include "core/lint/lint_rule.h"

namespace ql::rules {

std::unique_ptr<LintRule> makeGroupedConvAlignmentRule();
std::unique_ptr<LintRule> makeConvTransposeWeightAxisRule();
std::unique_ptr<LintRule> makeQdqAxisMismatchRule();
std::unique_ptr<LintRule> makeInt64InitializerRule();
std::unique_ptr<LintRule> makeInstanceNormRule();
std::unique_ptr<LintRule> makeUnsupportedOpRule();
std::unique_ptr<LintRule> makeOpsetRangeRule();
std::unique_ptr<LintRule> makeResidualAddRule();
std::unique_ptr<LintRule> makeQdqBlocksBnFusionRule();
std::unique_ptr<LintRule> makeMissingScaleRule();
std::unique_ptr<LintRule> makeQdqNonsymmetricRule();
std::unique_ptr<LintRule> makeQdqBiasRule();
std::unique_ptr<LintRule> makeQdqActivationPerChannelRule();
std::unique_ptr<LintRule> makeConcatScalesRule();
std::unique_ptr<LintRule> makeRequantizeRule();
std::unique_ptr<LintRule> makeSharedScaleRangeRule();
std::unique_ptr<LintRule> makeBoundedRangeCodesRule();
std::unique_ptr<LintRule> makeInt8ChannelAlignmentRule();
std::unique_ptr<LintRule> makeInt8GemvRule();
std::unique_ptr<LintRule> makeInt8SmallLayerRule();
std::unique_ptr<LintRule> makeSoftmaxNormInt8Rule();
std::unique_ptr<LintRule> makeResizeQdqRule();
std::unique_ptr<LintRule> makeResizeInterpolationInt8Rule();
std::unique_ptr<LintRule> makeQdqSplitsFusionRule();
std::unique_ptr<LintRule> makeQdqScalePositiveRule();
std::unique_ptr<LintRule> makeMhaFusionRule();
std::unique_ptr<LintRule> makeInt8AttentionShapeRule();
std::unique_ptr<LintRule> makePrecisionFlagsRule();
std::unique_ptr<LintRule> makeCalibClippingRule();
std::unique_ptr<LintRule> makeCalibMethodGapRule();
std::unique_ptr<LintRule> makeCalibDeadRangeRule();
std::unique_ptr<LintRule> makeCalibNonFiniteRule();
std::unique_ptr<LintRule> makeCalibFewSamplesRule();
std::unique_ptr<LintRule> makeStrongFp16GroupedConvRule();
// Whether TensorRT `version` has no strongly typed FP16 kernel for `node`: a grouped Conv or ConvTranspose (depthwise
// included) on 11.2 (trt-strong-fp16-grouped-conv). Such a layer that cannot run INT8 falls back to FP32, not FP16
// (Fp16KernelFallback in lint_policy.h, and trt-grouped-conv-int8-alignment's advice).
bool lacksStrongFp16Kernel(TrtVersion version, const Node& node);
std::unique_ptr<LintRule> makeFloatModelFp32Rule();
std::unique_ptr<LintRule> makeQdqTypeRule();
std::unique_ptr<LintRule> makeCalibOutlierChannelsRule();
std::unique_ptr<LintRule> makeInt8IslandSlowerRule();
std::unique_ptr<LintRule> makeFp16IslandReformatsRule();
std::unique_ptr<LintRule> makeInt8NoGainRule();

}  // namespace ql::rules
