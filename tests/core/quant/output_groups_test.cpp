// A detector's output compared per channel group: boxes and scores detected from the graph, or named by the user.
#include "core/quant/output_groups.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

TEST(OutputGroupsTest, TheTrainedDetectorsBoxesAndScoresAreDetected) {
    auto model = Model::load(std::string(QL_TEST_DATA_DIR) + "/tune/detector.onnx");
    ASSERT_TRUE(model) << model.status().message();
    const auto groups = detectDetectorOutputGroups((*model)->graph());
    ASSERT_EQ(groups.size(), 2u);  // predictions [N,189,7]: (cx, cy) and (w, h), then 3 class scores
    EXPECT_EQ(groups[0].name, "boxes");
    EXPECT_EQ(groups[0].axis, 2);
    EXPECT_EQ(groups[0].begin, 0);
    EXPECT_EQ(groups[0].end, 4);
    EXPECT_EQ(groups[1].name, "scores");
    EXPECT_EQ(groups[1].begin, 4);
    EXPECT_EQ(groups[1].end, 7);
}

TEST(OutputGroupsTest, TheYoloV8ExportsSplitIsOnAxisOne) {
    auto model = Model::load(std::string(QL_TEST_DATA_DIR) + "/models/yolov8_tiny.onnx");
    ASSERT_TRUE(model) << model.status().message();
    const auto groups = detectDetectorOutputGroups((*model)->graph());
    ASSERT_EQ(groups.size(), 2u);  // [1, 4 + 16, anchors]
    EXPECT_EQ(groups[0].axis, 1);
    EXPECT_EQ(groups[0].end, 4);
    EXPECT_EQ(groups[1].end, 20);
}

TEST(OutputGroupsTest, AClassifierHasNoGroups) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 10});
    b.node("Softmax", {"x"}, {"y"}, "softmax").i("axis", 1);
    b.output("y");
    EXPECT_TRUE(detectDetectorOutputGroups(b.load()->graph()).empty());
}

TEST(OutputGroupsTest, TheSpecIsParsedAndCheckedAgainstTheOutput) {
    auto groups = parseOutputGroups("boxes=0:4,scores=4:7", 2);
    ASSERT_TRUE(groups) << groups.status().message();
    ASSERT_EQ(groups->size(), 2u);
    EXPECT_EQ((*groups)[1].name, "scores");
    EXPECT_EQ((*groups)[1].begin, 4);
    EXPECT_FALSE(parseOutputGroups("boxes=4:0", 1));
    EXPECT_FALSE(parseOutputGroups("boxes", 1));
    EXPECT_FALSE(parseOutputGroups("=0:4", 1));
    auto model = Model::load(std::string(QL_TEST_DATA_DIR) + "/tune/detector.onnx");
    ASSERT_TRUE(model);
    EXPECT_TRUE(checkOutputGroups((*model)->graph(), *groups));
    const Status tooWide = checkOutputGroups((*model)->graph(), *parseOutputGroups("all=0:9", 2));
    EXPECT_FALSE(tooWide);
    EXPECT_NE(tooWide.message().find("has 7 channels on axis 2"), std::string::npos) << tooWide.message();
}

// Error accumulated per group: exact boxes, a perturbed score.
TEST(OutputGroupsTest, EachGroupGetsItsOwnError) {
    OutputGroupAccumulator acc({{"boxes", -1, 0, 2}, {"scores", -1, 2, 3}});
    const Tensor fp32 = Tensor::fromVector<float>(DataType::Float, {2, 3}, {100, 200, 0.5f, 300, 400, 0.25f});
    const Tensor quant = Tensor::fromVector<float>(DataType::Float, {2, 3}, {100, 200, 0.0f, 300, 400, 0.0f});
    acc.add(fp32, quant);
    const auto result = acc.result();
    ASSERT_EQ(result.size(), 2u);
    EXPECT_TRUE(std::isinf(result[0].metrics.sqnrDb));
    EXPECT_EQ(result[0].metrics.count, 4);
    EXPECT_DOUBLE_EQ(result[1].metrics.sqnrDb, 0.0);  // every score rounded to 0: SQNR 0 dB
    EXPECT_EQ(result[1].metrics.count, 2);
}

}  // namespace
}  // namespace ql
