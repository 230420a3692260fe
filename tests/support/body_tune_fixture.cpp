#include "tests/support/body_tune_fixture.h"

#include <gtest/gtest.h>

#include "core/data/input_data.h"
#include "core/model/subgraph_model.h"
#include "core/quant/default_placement.h"
#include "tests/support/model_builder.h"

namespace ql::test {

std::unique_ptr<DataSource> bodyTuneSamples(const Graph& graph) {
    auto input = ArrayInput::create(Tensor::fromVector(DataType::Float, {kBodyTuneSamples, 4, 8, 8},
                                                       seededFloats(kBodyTuneSamples * 4 * 8 * 8, 11, -1.0f, 2.0f)),
                                    inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    return std::move(MultiInputSource::create(std::move(inputs))).value();
}

PrecisionPlan bodiesPlanned(const Graph& graph) {
    PrecisionPlan plan = defaultPrecisionPlan(graph);
    for (const auto& [node, attribute] : {std::pair{"refine", "body"}, std::pair{"route", "else_branch"}}) {
        auto body = buildSubgraphModel(graph, graph.node(*graph.findNode(node)), attribute);
        EXPECT_TRUE(body) << body.status().message();
        plan.ensureBody(node, attribute, body->graph) = defaultPrecisionPlan(body->graph);
    }
    return plan;
}

CalibrationResult plantedInBody(const Graph& graph) {
    auto data = bodyTuneSamples(graph);
    auto result = calibrate(graph, *data, *parseCalibrationMethod("minmax"));
    EXPECT_TRUE(result) << result.status().message();
    CalibrationResult c = std::move(result).value();
    for (TensorRange& r : c.subgraphActivations)
        if (r.name == "refine/body/state") r.amax *= 0.05f;
    return c;
}

Result<TuneReport> tuneBodies(const Graph& graph, const std::string& target) {
    auto data = bodyTuneSamples(graph);
    TuneOptions options;
    options.target = *TuneTarget::parse(target);
    options.subsetSamples = 8;
    return tune(graph, bodiesPlanned(graph), plantedInBody(graph), *data, options);
}

}  // namespace ql::test
