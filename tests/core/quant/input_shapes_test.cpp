// The input shapes a calibration ran: recorded per batch, kept in CALIB.json, checked when read back.
#include "core/quant/input_shapes.h"

#include <gtest/gtest.h>

#include "core/quant/calibration_file.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

NamedTensors batchOf(int64_t count, int64_t height) {
    return {{"x", Tensor::zeros(DataType::Float, {count, 3, height, 8})}};
}

TEST(InputShapesTest, MinAndMaxPerDimensionAndTheMostFrequentShapeAsOpt) {
    InputShapeRecorder recorder;
    for (auto [count, height] : {std::pair{8, 16}, {8, 16}, {8, 32}, {2, 16}}) recorder.add(batchOf(count, height));
    const auto ranges = recorder.ranges();
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0].input, "x");
    EXPECT_EQ(ranges[0].min, (Shape{2, 3, 16, 8}));
    EXPECT_EQ(ranges[0].opt, (Shape{8, 3, 16, 8}));
    EXPECT_EQ(ranges[0].max, (Shape{8, 3, 32, 8}));
    EXPECT_EQ(rangeProblem(ranges[0]), "");
}

std::unique_ptr<Model> dynamicModel() {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 3, 4, 4});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    return b.load();
}

TEST(InputShapesTest, CalibrationFileKeepsThemAndReadsFilesWithout) {
    auto model = dynamicModel();
    CalibrationResult result;
    result.inputShapes = {{"x", {1, 3, 4, 4}, {8, 3, 4, 4}, {8, 3, 4, 4}}};
    const auto json = calibrationToJson(model->graph(), result);
    EXPECT_EQ(json["input_shapes"]["x"]["opt"], nlohmann::json::array({8, 3, 4, 4}));
    auto read = calibrationFromJson(model->graph(), json, "c.json");
    ASSERT_TRUE(read) << read.status().message();
    ASSERT_EQ(read->inputShapes.size(), 1u);
    EXPECT_EQ(read->inputShapes[0].min, (Shape{1, 3, 4, 4}));
    auto older = json;
    older.erase("input_shapes");
    read = calibrationFromJson(model->graph(), older, "c.json");
    ASSERT_TRUE(read) << read.status().message();
    EXPECT_TRUE(read->inputShapes.empty());
}

TEST(InputShapesTest, BadEntriesAreErrorsNamingTheFileAndTheInput) {
    auto model = dynamicModel();
    const auto base = calibrationToJson(model->graph(), CalibrationResult{});
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"y": {"min": [1], "opt": [1], "max": [1]}})", "c.json: \"input_shapes\" names 'y', which is not an input"},
        {R"({"x": {"min": [1,3,4,4], "opt": [8,3,4,4]}})", "c.json: input_shapes of 'x': \"max\" is missing"},
        {R"({"x": {"min": [8,3,4,4], "opt": [1,3,4,4], "max": [8,3,4,4]}})", "dimension 0 must grow"},
        {R"({"x": {"min": [-1], "opt": [1], "max": [1]}})", "holds something other than a non-negative integer"},
        {R"([1])", "\"input_shapes\" is not an object"},
    };
    for (const auto& [entry, message] : cases) {
        auto json = base;
        json["input_shapes"] = nlohmann::json::parse(entry);
        auto read = calibrationFromJson(model->graph(), json, "c.json");
        ASSERT_FALSE(read) << entry;
        EXPECT_NE(read.status().message().find(message), std::string::npos) << read.status().message();
    }
}

}  // namespace
}  // namespace ql
