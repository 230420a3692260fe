// Output metrics by output kind: class scores get top-1 agreement, everything else SQNR/cosine/max error.
#include "core/quant/output_kind.h"

#include <gtest/gtest.h>

#include "core/model/model.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

OutputKind kindOf(const std::string& path) {
    auto model = Model::load(std::string(QL_TEST_DATA_DIR) + path);
    EXPECT_TRUE(model) << model.status().message();
    return model ? firstOutputKind((*model)->graph()) : OutputKind::Values;
}

TEST(OutputKindTest, ClassifiersHaveClassScores) {
    EXPECT_EQ(kindOf("/tune/transformer.onnx"), OutputKind::ClassScores);  // logits [N, 10]
    EXPECT_EQ(kindOf("/models/bert_tiny.onnx"), OutputKind::ClassScores);  // [1, 2]
}

TEST(OutputKindTest, DetectorsAndMapsHaveValues) {
    EXPECT_EQ(kindOf("/tune/detector.onnx"), OutputKind::Values);       // [N, 189, 7]
    EXPECT_EQ(kindOf("/models/yolov8_tiny.onnx"), OutputKind::Values);  // [1, 20, 2100]
    test::ModelBuilder b;
    b.input("x", DataType::Float, {1, 1});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    EXPECT_EQ(firstOutputKind(b.load()->graph()), OutputKind::Values);  // one value per sample: a regression
    EXPECT_STREQ(outputKindName(OutputKind::ClassScores), "class_scores");
}

}  // namespace
}  // namespace ql
