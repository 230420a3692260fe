// The kind of a model's first output: class vectors get top-1 agreement, detectors and other tensors get SQNR.
#include <gtest/gtest.h>

#include "core/model/model.h"
#include "core/quant/output_kind.h"
#include "tests/support/model_builder.h"

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

// What tune says when refusing a top-1 target: the detector's output named with its shape and kind; nothing for a
// class vector, nor for an output whose shape the file does not give (the data decide then).
TEST(OutputKind, WhyNoTopClassNamesTheFirstOutputUnlessItIsAClassVectorOrUnknown) {
    auto detector = Model::load(QL_TEST_DATA_DIR "/models/yolov8_tiny.onnx");
    ASSERT_TRUE(detector.isOk()) << detector.status().message();
    const std::string why = whyNoTopClass((*detector)->graph());
    EXPECT_NE(why.find("the first output '"), std::string::npos) << why;
    EXPECT_NE(why.find("holds a detector's boxes and scores"), std::string::npos) << why;
    test::ModelBuilder classes;
    classes.input("x", DataType::Float, {-1, 10});
    classes.node("Relu", {"x"}, {"y"}, "relu");
    classes.output("y");
    EXPECT_EQ(whyNoTopClass(classes.load()->graph()), "");
    // Reshaped to a shape given at run time: neither rank nor dims are known.
    test::ModelBuilder unknown;
    unknown.input("x", DataType::Float, {-1, 10});
    unknown.input("shape", DataType::Int64, {-1});
    unknown.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
    unknown.output("y");
    EXPECT_EQ(whyNoTopClass(unknown.load()->graph()), "");
}

// x [N, 8] -> Gemm -> v [N, 16], then `tail` makes the output `out` from v.
using Tail = void (*)(test::ModelBuilder&);

OutputKindDecision kindOfHead(Tail tail, const std::string& out = "out", const OutputRowProfile* rows = nullptr) {
    test::ModelBuilder b;
    b.input("x", DataType::Float, {-1, 8});
    b.initializer("w", {16, 8}, test::seededFloats(128, 3));
    b.node("Gemm", {"x", "w"}, {"v"}, "fc").i("transB", 1);
    tail(b);
    b.output(out);
    const auto model = b.load();
    return outputKind(model->graph(), *model->graph().findValue(out), false, rows);
}

TEST(OutputKind, RawLogitsAndSoftmaxAreClassVectors) {
    EXPECT_EQ(kindOfHead([](test::ModelBuilder& b) { b.node("Identity", {"v"}, {"out"}); }).kind,
              OutputKind::ClassVector);
    const OutputKindDecision softmax =
        kindOfHead([](test::ModelBuilder& b) { b.node("Softmax", {"v"}, {"out"}, "sm"); });
    EXPECT_EQ(softmax.kind, OutputKind::ClassVector);
    EXPECT_NE(softmax.why.find("Softmax"), std::string::npos) << softmax.why;
}

// The 512-d face embedding of the issue read "top-1 37.5 %": an L2-normalized vector is no set of class scores.
TEST(OutputKind, AnL2NormalizedVectorIsAnEmbedding) {
    const OutputKindDecision divided = kindOfHead([](test::ModelBuilder& b) {
        b.node("ReduceL2", {"v"}, {"norm"}).ints("axes", {1}).i("keepdims", 1);
        b.node("Div", {"v", "norm"}, {"out"}, "l2_div");
    });
    EXPECT_EQ(divided.kind, OutputKind::Values);
    EXPECT_NE(divided.why.find("l2_div"), std::string::npos) << divided.why;
    EXPECT_EQ(kindOfHead([](test::ModelBuilder& b) { b.node("LpNormalization", {"v"}, {"out"}).i("axis", 1); }).kind,
              OutputKind::Values);
}

TEST(OutputKind, ABatchNormNeckOrAnEmbeddingNameIsAnEmbedding) {
    const auto bnNeck = [](test::ModelBuilder& b) {
        b.initializer("scale", {16}, std::vector<float>(16, 1.0f));
        b.initializer("bias", {16}, std::vector<float>(16, 0.0f));
        b.initializer("mean", {16}, std::vector<float>(16, 0.0f));
        b.initializer("var", {16}, std::vector<float>(16, 1.0f));
        b.node("BatchNormalization", {"v", "scale", "bias", "mean", "var"}, {"out"}, "neck");
    };
    EXPECT_EQ(kindOfHead(bnNeck).kind, OutputKind::Values);
    EXPECT_EQ(
        kindOfHead([](test::ModelBuilder& b) { b.node("Identity", {"v"}, {"face_embedding"}); }, "face_embedding").kind,
        OutputKind::Values);
}

TEST(OutputKind, UnitNormRowsWithNegativeValuesAreAnEmbeddingProbabilitiesAreNot) {
    const auto plain = [](test::ModelBuilder& b) { b.node("Identity", {"v"}, {"out"}); };
    OutputRowProfile unit;
    unit.add(Tensor::fromVector(DataType::Float, {2, 2}, std::vector<float>{0.6f, -0.8f, -1.0f, 0.0f}));
    EXPECT_EQ(kindOfHead(plain, "out", &unit).kind, OutputKind::Values);
    OutputRowProfile probabilities;  // a confident softmax also has rows of norm ~1, but no negative value
    probabilities.add(Tensor::fromVector(DataType::Float, {2, 2}, std::vector<float>{0.999f, 0.001f, 0.0f, 1.0f}));
    EXPECT_EQ(kindOfHead(plain, "out", &probabilities).kind, OutputKind::ClassVector);
    OutputRowProfile oneOff;  // one row off the unit sphere: logits
    oneOff.add(Tensor::fromVector(DataType::Float, {2, 2}, std::vector<float>{0.6f, -0.8f, 3.0f, -1.0f}));
    EXPECT_EQ(kindOfHead(plain, "out", &oneOff).kind, OutputKind::ClassVector);
}

}  // namespace
}  // namespace ql
