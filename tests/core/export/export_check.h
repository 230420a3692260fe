#pragma once
// Exports a model for every TensorRT target with the plan QuantLens would use (the default placement, its lint
// fallbacks and FP16 guard), and checks what a user checks on the file: the ONNX checker passes, and the reopened
// export's Q/DQ layers are the summary's.
#include <gtest/gtest.h>

#include <onnx/checker.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/export/effective_plan.h"
#include "core/export/qdq_export.h"
#include "core/lint/trt_version.h"
#include "tests/support/calibration_fixture.h"
#include "tests/support/model_builder.h"

namespace ql::test {

inline const std::vector<TrtTarget>& allTrtTargets() {
    static const std::vector<TrtTarget> targets = {{TrtVersion::Trt86, TrtTyping::Weak},
                                                   {TrtVersion::Trt10, TrtTyping::Weak},
                                                   {TrtVersion::Trt10, TrtTyping::Strong},
                                                   {TrtVersion::Trt11, TrtTyping::Strong}};
    return targets;
}

// The layers the summary says read an activation or weight through Q/DQ.
inline std::set<std::string> summaryQdqLayers(const QdqExport& result) {
    std::set<std::string> layers;
    for (const auto& edge : result.placement.edges) layers.insert(result.prepared->graph().node(edge.consumer).name);
    return layers;
}

// The layers the reopened file feeds from a DequantizeLinear (the loader's Q/DQ links).
inline std::set<std::string> reopenedQdqLayers(const onnx::ModelProto& proto) {
    auto reopened = loadProto(proto);
    std::set<std::string> layers;
    if (!reopened) return layers;
    for (const auto& link : reopened->graph().qdqLinks())
        if (link.layer != kNoId) layers.insert(reopened->graph().node(link.layer).name);
    return layers;
}

// One export for `target`, checked; the result (or nothing when the export failed, which the test reports).
inline std::optional<QdqExport> exportChecked(const Model& model, const TrtTarget& target) {
    SCOPED_TRACE(trtTargetName(target));
    const Graph& graph = model.graph();
    const CalibrationResult calibration = uniformCalibration(graph, {}, 3.0f);
    auto plan = effectivePlan(graph, std::string(), target.version, Precision::Fp16, &calibration);
    EXPECT_TRUE(plan) << plan.status().message();
    if (!plan) return std::nullopt;
    auto result = exportQdq(model, *plan, calibration, {.tensorRtMajor = trtMajor(target.version)}, {.trt = target});
    EXPECT_TRUE(result) << trtTargetName(target) << ": " << result.status().message();
    if (!result) return std::nullopt;
    EXPECT_NO_THROW(onnx::checker::check_model(result->proto)) << trtTargetName(target);
    EXPECT_FALSE(summaryQdqLayers(*result).empty()) << trtTargetName(target) << ": nothing quantized";
    EXPECT_EQ(reopenedQdqLayers(result->proto), summaryQdqLayers(*result)) << trtTargetName(target);
    return std::move(result).value();
}

}  // namespace ql::test
