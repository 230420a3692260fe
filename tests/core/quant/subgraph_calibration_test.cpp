// Calibration sees the tensors inside If/Loop/Scan bodies, named by where they are, and CALIB.json keeps them.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/data/input_data.h"
#include "core/quant/calibration.h"
#include "core/quant/calibration_file.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::ModelBuilder;

// x [N, 4] -> If(cond = true): then x * 2, else -x -> y. The then-branch reads x from the outer scope.
std::unique_ptr<Model> branchModel() {
    ModelBuilder thenB, elseB;
    thenB.initializer("two", {}, {2.0f});
    thenB.node("Mul", {"x", "two"}, {"t"}, "double");
    thenB.output("t", DataType::Float, {-1, 4});
    elseB.node("Neg", {"x"}, {"e"}, "negate");
    elseB.output("e", DataType::Float, {-1, 4});
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4});
    b.initializer("cond", DataType::Bool, {}, {1.0});
    b.node("If", {"cond"}, {"y"}, "branch").graph("then_branch", thenB.graph()).graph("else_branch", elseB.graph());
    b.output("y", DataType::Float, {-1, 4});
    return b.load();
}

std::unique_ptr<DataSource> samples(const Graph& graph, const std::vector<float>& values) {
    auto input =
        ArrayInput::create(Tensor::fromVector(DataType::Float, {static_cast<int64_t>(values.size() / 4), 4}, values),
                           inputSpecs(graph).front(), "x.npy");
    EXPECT_TRUE(input.isOk()) << input.status().message();
    MultiInputSource::Inputs inputs;
    inputs.emplace_back("x", std::move(input).value());
    return std::move(MultiInputSource::create(std::move(inputs))).value();
}

TEST(SubgraphCalibration, TensorsInsideABodyAreCalibratedUnderTheirPath) {
    const auto model = branchModel();
    const Graph& graph = model->graph();
    auto data = samples(graph, {1, -3, 0.5f, 2, 4, 0, -1, 1});
    auto result = calibrate(graph, *data, *parseCalibrationMethod("minmax"), {});
    ASSERT_TRUE(result.isOk()) << result.status().message();
    ASSERT_EQ(result->subgraphActivations.size(), 1u);  // the branch taken; the else-branch never ran
    const TensorRange& t = result->subgraphActivations.front();
    EXPECT_EQ(t.name, "branch/then_branch/t");
    EXPECT_FLOAT_EQ(t.max, 8.0f);
    EXPECT_FLOAT_EQ(t.min, -6.0f);
    EXPECT_FLOAT_EQ(t.amax, 8.0f);

    // CALIB.json keeps them apart from the main graph's activations and reads them back.
    const nlohmann::json json = calibrationToJson(graph, *result);
    ASSERT_TRUE(json.contains("subgraph_activations"));
    auto loaded = calibrationFromJson(graph, json, "calib.json");
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    ASSERT_EQ(loaded->subgraphActivations.size(), 1u);
    EXPECT_EQ(loaded->subgraphActivations.front().name, "branch/then_branch/t");
    EXPECT_FLOAT_EQ(loaded->subgraphActivations.front().amax, 8.0f);

    // A path that names no body of the model is refused, naming it.
    nlohmann::json bad = json;
    bad["subgraph_activations"]["branch/body/t"] = json["subgraph_activations"]["branch/then_branch/t"];
    const auto refused = calibrationFromJson(graph, bad, "calib.json");
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("'branch/body/t' is not a tensor inside a subgraph"), std::string::npos)
        << refused.status().message();
}

// x [N, 4] -> Loop (2 trips, state x): state + 1 -> y: the body's state is an input of the body, not a node's output.
TEST(SubgraphCalibration, ALoopsStateIsCalibratedAsTheBodyReceivesIt) {
    ModelBuilder body;
    body.input("i", DataType::Int64, {});
    body.input("go", DataType::Bool, {});
    body.input("state", DataType::Float, {-1, 4});
    body.initializer("one", {}, {1.0f});
    body.node("Identity", {"go"}, {"go.out"}, "keep");
    body.node("Add", {"state", "one"}, {"next"}, "step");
    body.output("go.out", DataType::Bool, {}, true);
    body.output("next", DataType::Float, {-1, 4});
    ModelBuilder b;
    b.input("x", DataType::Float, {-1, 4});
    b.initializer("trips", DataType::Int64, {}, {2});
    b.initializer("always", DataType::Bool, {}, {1});
    b.node("Loop", {"trips", "always", "x"}, {"y"}, "loop").graph("body", body.graph());
    b.output("y", DataType::Float, {-1, 4});
    const auto model = b.load();
    ASSERT_TRUE(model);
    auto data = samples(model->graph(), {1, -3, 0.5f, 2, 4, 0, -1, 1});
    auto result = calibrate(model->graph(), *data, *parseCalibrationMethod("minmax"), {});
    ASSERT_TRUE(result.isOk()) << result.status().message();
    const auto state = std::find_if(result->subgraphActivations.begin(), result->subgraphActivations.end(),
                                    [](const TensorRange& r) { return r.name == "loop/body/state"; });
    ASSERT_NE(state, result->subgraphActivations.end());
    EXPECT_FLOAT_EQ(state->max, 5.0f);   // x, then x + 1
    EXPECT_FLOAT_EQ(state->min, -3.0f);  // x's own minimum, in the first trip
    // CALIB.json keeps it and reads it back.
    const auto loaded = calibrationFromJson(model->graph(), calibrationToJson(model->graph(), *result), "calib.json");
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
}

}  // namespace
}  // namespace ql
