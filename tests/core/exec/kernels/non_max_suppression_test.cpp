#include "core/exec/kernels/non_max_suppression.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// The spec's six boxes: three overlapping near the top, one alone, two overlapping lower down.
const std::vector<float> kBoxes{0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const std::vector<float> kScores{0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

Result<Tensor> nms(const Tensor& boxes, const Tensor& scores, int64_t maxOutput, float iou, std::optional<float> score,
                   int64_t centerPoint = 0) {
    NamedTensors in{
        {"boxes", boxes}, {"scores", scores}, {"max", int64s({1}, {maxOutput})}, {"iou", floats({1}, {iou})}};
    if (score) in.emplace_back("score", floats({1}, {*score}));
    return runOne(NodeSpec("NonMaxSuppression", in, {DataType::Int64}, 11,
                           [&](NodeBuilder& n) { n.i("center_point_box", centerPoint); }));
}

}  // namespace

TEST(NonMaxSuppressionTest, SpecExampleSuppressByIouAndScores) {
    auto out = nms(floats({1, 6, 4}, kBoxes), floats({1, 1, 6}, kScores), 3, 0.5f, 0.4f);
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(out->shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<int64_t>(*out), (std::vector<int64_t>{0, 0, 3, 0, 0, 0}));
}

TEST(NonMaxSuppressionTest, CenterPointBoxesAndTheOutputLimit) {
    std::vector<float> centers;
    for (size_t i = 0; i < kBoxes.size(); i += 4)  // [y1, x1, y2, x2] -> [xc, yc, w, h]
        centers.insert(centers.end(), {(kBoxes[i + 1] + kBoxes[i + 3]) / 2, (kBoxes[i] + kBoxes[i + 2]) / 2,
                                       kBoxes[i + 3] - kBoxes[i + 1], kBoxes[i + 2] - kBoxes[i]});
    auto out = nms(floats({1, 6, 4}, centers), floats({1, 1, 6}, kScores), 3, 0.5f, std::nullopt, 1);
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(*out), (std::vector<int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 5}));
    auto two = nms(floats({1, 6, 4}, kBoxes), floats({1, 1, 6}, kScores), 2, 0.5f, std::nullopt);
    ASSERT_TRUE(two);
    EXPECT_EQ(valuesOf<int64_t>(*two), (std::vector<int64_t>{0, 0, 3, 0, 0, 0}));
    auto none = nms(floats({1, 6, 4}, kBoxes), floats({1, 1, 6}, kScores), 0, 0.5f, std::nullopt);
    ASSERT_TRUE(none);
    EXPECT_EQ(none->shape(), (Shape{0, 3}));
}

TEST(NonMaxSuppressionTest, MismatchedShapesAreAnErrorNamingTheNode) {
    auto out = nms(floats({1, 6, 4}, kBoxes), floats({1, 1, 5}, {1, 2, 3, 4, 5}), 3, 0.5f, std::nullopt);
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("Op (NonMaxSuppression): boxes must be [batches, boxes, 4]"),
              std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
