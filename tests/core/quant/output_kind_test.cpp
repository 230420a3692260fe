// The kind of a model's first output: class vectors get top-1 agreement, detectors and other tensors get SQNR.
#include <gtest/gtest.h>

#include "core/model/model.h"
#include "core/quant/output_kind.h"

namespace ql {
namespace {

TEST(OutputKind, ClassVectorsAreNByC) {
    EXPECT_EQ(outputKindOf({-1, 10}, false), OutputKind::ClassVector);
    EXPECT_EQ(outputKindOf({8, 1000, 1, 1}, false), OutputKind::ClassVector);
    EXPECT_EQ(outputKindOf({8, 1}, false), OutputKind::Values);  // one score: no argmax to agree on
}

TEST(OutputKind, DetectorsAndMapsAreNot) {
    EXPECT_EQ(outputKindOf({1, 84, 8400}, false), OutputKind::Values);
    EXPECT_EQ(outputKindOf({1, 84, 8400}, true), OutputKind::Detection);
    EXPECT_EQ(outputKindOf({1, 3, 64, 64}, false), OutputKind::Values);
    EXPECT_EQ(outputKindOf({}, false), OutputKind::Values);
}

TEST(OutputKind, TheBundledDetectorIsADetection) {
    auto model = Model::load(QL_TEST_DATA_DIR "/models/yolov8_tiny.onnx");
    ASSERT_TRUE(model.isOk()) << model.status().message();
    EXPECT_EQ(firstOutputKind((*model)->graph()), OutputKind::Detection);
}

}  // namespace
}  // namespace ql
