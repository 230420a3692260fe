// trt-mha-fusion and trt-int8-attention-shape: attention TensorRT cannot fuse, attention partly quantized, INT8
// attention beyond the fused kernel's sequence lengths and head sizes.
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr const char* kFusion = "trt-mha-fusion";
constexpr const char* kShape = "trt-int8-attention-shape";

struct AttentionSpec {
    int64_t length = 64;
    int64_t head = 32;
    std::string scaleOp = "Mul";  // "Mul", "Div"
    bool scaleFromPow = false;    // the scale as PyTorch writes it: Pow(head size, -0.5), computed from constants
    bool einsum = false;
    bool maskAfterSoftmax = false;
    bool quantizeScores = false;   // Q/DQ on both inputs of BMM1
    bool quantizeContext = false;  // Q/DQ on both inputs of BMM2
};

// q [1,2,S,H] x kT [1,2,H,S] -> scale -> + mask -> Softmax -> x v [1,2,S,H]: attention as exporters write it.
std::unique_ptr<Model> attention(const AttentionSpec& spec) {
    test::ModelBuilder b(17);
    const int64_t s = spec.length, h = spec.head;
    b.input("q", DataType::Float, {1, 2, s, h});
    b.input("kT", DataType::Float, {1, 2, h, s});
    b.input("v", DataType::Float, {1, 2, s, h});
    b.input("mask", DataType::Float, {1, 1, 1, s});
    if (spec.scaleFromPow) {
        b.initializer("head_size", {}, {static_cast<float>(h)});
        b.initializer("minus_half", {}, {-0.5f});
        b.node("Pow", {"head_size", "minus_half"}, {"scale"}, "scale_pow");
    } else {
        b.initializer("scale", {}, {spec.scaleOp == "Div" ? 5.66f : 0.177f});
    }
    std::string q = "q", k = "kT";
    if (spec.quantizeScores) {
        q = test::addQdq(b, "q");
        k = test::addQdq(b, "kT");
    }
    if (spec.einsum)
        b.node("Einsum", {q, k}, {"scores"}, "qk").s("equation", "bhsd,bhdt->bhst");
    else
        b.node("MatMul", {q, k}, {"scores"}, "qk");
    b.node(spec.scaleOp, {"scores", "scale"}, {"scaled"}, "scale_scores");
    b.node("Add", {"scaled", "mask"}, {"masked"}, "add_mask");
    b.node("Softmax", {"masked"}, {"probs"}, "softmax").i("axis", -1);
    std::string probs = "probs", v = "v";
    if (spec.maskAfterSoftmax) {
        b.node("Mul", {"probs", "mask"}, {"probs_masked"}, "mask_probs");
        probs = "probs_masked";
    }
    if (spec.quantizeContext) {
        probs = test::addQdq(b, probs);
        v = test::addQdq(b, "v");
    }
    b.node("MatMul", {probs, v}, {"context"}, "pv");
    b.output("context");
    return b.load();
}

TEST(MhaFusionRuleTest, TheExpectedFormIsQuiet) {
    const auto model = attention({});
    EXPECT_TRUE(test::findingsOf(*model, kFusion).empty());
    EXPECT_TRUE(test::findingsOf(*model, kShape).empty());
}

// A standard PyTorch ViT scales the scores by Mul(scores, Pow(64, -0.5)): a constant, not a mask.
TEST(MhaFusionRuleTest, AScaleComputedFromConstantsIsNotAMask) {
    AttentionSpec spec;
    spec.scaleFromPow = true;
    EXPECT_TRUE(test::findingsOf(*attention(spec), kFusion).empty());
}

TEST(MhaFusionRuleTest, AMaskMultipliedIntoTheScoresIsReported) {
    test::ModelBuilder b(17);
    b.input("q", DataType::Float, {1, 2, 64, 32});
    b.input("kT", DataType::Float, {1, 2, 32, 64});
    b.input("v", DataType::Float, {1, 2, 64, 32});
    b.input("mask", DataType::Float, {1, 1, 1, 64});
    b.node("MatMul", {"q", "kT"}, {"scores"}, "qk");
    b.node("Mul", {"scores", "mask"}, {"masked"}, "mask_scores");
    b.node("Softmax", {"masked"}, {"probs"}, "softmax").i("axis", -1);
    b.node("MatMul", {"probs", "v"}, {"context"}, "pv");
    b.output("context");
    const auto f = test::findingsOf(*b.load(), kFusion);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("the mask is multiplied into the scores ('mask_scores')"), std::string::npos)
        << f[0].message;
}

TEST(MhaFusionRuleTest, ADivScaleAfterTheScoresBlocksFusion) {
    AttentionSpec spec;
    spec.scaleOp = "Div";
    const auto f = test::findingsOf(*attention(spec), kFusion);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].nodeName, "qk");
    EXPECT_NE(f[0].message.find("scaled by a Div ('scale_scores')"), std::string::npos) << f[0].message;
}

TEST(MhaFusionRuleTest, EinsumBlocksFusion) {
    AttentionSpec spec;
    spec.einsum = true;
    const auto f = test::findingsOf(*attention(spec), kFusion);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("is an Einsum"), std::string::npos) << f[0].message;
}

TEST(MhaFusionRuleTest, AMaskMultipliedAfterTheSoftmaxBlocksFusion) {
    AttentionSpec spec;
    spec.maskAfterSoftmax = true;
    const auto f = test::findingsOf(*attention(spec), kFusion);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("'mask_probs' (Mul) sits between the Softmax and the second MatMul"), std::string::npos)
        << f[0].message;
}

TEST(MhaFusionRuleTest, QdqOnOnlyOneBatchedMatMulIsReported) {
    AttentionSpec spec;
    spec.quantizeScores = true;
    const auto f = test::findingsOf(*attention(spec), kFusion);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("partly quantized"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("the second MatMul's input 'v'"), std::string::npos) << f[0].message;
    EXPECT_EQ(f[0].message.find("the first MatMul"), std::string::npos) << f[0].message;
}

TEST(MhaFusionRuleTest, QdqOnBothBatchedMatMulsIsQuiet) {
    AttentionSpec spec;
    spec.quantizeScores = spec.quantizeContext = true;
    EXPECT_TRUE(test::findingsOf(*attention(spec), kFusion).empty());
}

// The plan's defaults run both batched MatMuls INT8 up to 512 tokens; beyond, FP16 (the default placement).
TEST(Int8AttentionShapeRuleTest, LongSequencesInInt8AreReported) {
    AttentionSpec spec;
    spec.length = 1024;
    spec.quantizeScores = spec.quantizeContext = true;
    const auto f = test::findingsOf(*attention(spec), kShape);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_NE(f[0].message.find("1024 queries x 1024 keys"), std::string::npos) << f[0].message;
}

TEST(Int8AttentionShapeRuleTest, LongSequencesInFloatAreQuiet) {
    AttentionSpec spec;
    spec.length = 1024;
    EXPECT_TRUE(test::findingsOf(*attention(spec), kShape).empty());
}

TEST(Int8AttentionShapeRuleTest, AHeadSizeWithoutAnInt8KernelIsInfo) {
    AttentionSpec spec;
    spec.head = 48;
    spec.quantizeScores = spec.quantizeContext = true;
    const auto f = test::findingsOf(*attention(spec), kShape);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_NE(f[0].message.find("head size 48"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace ql
