// The ONNX names an engine layer carries: metadata entries, fused-name parts, reformat targets.
#include <gtest/gtest.h>

#include "core/engine/onnx_layer_names.h"

namespace ql {
namespace {

using Names = std::vector<std::string>;

TEST(OnnxLayerNamesTest, MetadataEntriesWithAnySeparator) {
    EXPECT_EQ(metadataOnnxNames("[ONNX Layer: /conv1/Conv]"), Names{"/conv1/Conv"});
    EXPECT_EQ(metadataOnnxNames("[ONNX Layer: a]\x1f[ONNX Layer: b]\x1e[ONNX Layer: c]"), (Names{"a", "b", "c"}));
    EXPECT_EQ(metadataOnnxNames("[ONNX Layer: a][ONNX Layer: b]"), (Names{"a", "b"}));
    EXPECT_EQ(metadataOnnxNames("[ONNX Layer: x[0]]"), Names{"x[0]"});
    EXPECT_TRUE(metadataOnnxNames("").empty());
    EXPECT_TRUE(metadataOnnxNames("some text").empty());
}

TEST(OnnxLayerNamesTest, FusedNamesSplitAndUnwrapPointwise) {
    EXPECT_EQ(fusedNameParts("features.1.conv.0.0.weight + QuantizeLinear_21 + Conv_23 + PWN(Clip_27)"),
              (Names{"features.1.conv.0.0.weight", "QuantizeLinear_21", "Conv_23", "Clip_27"}));
    EXPECT_EQ(fusedNameParts("Conv_1 + PWN(PWN(Sigmoid_2), Mul_3)"), (Names{"Conv_1", "Sigmoid_2", "Mul_3"}));
    EXPECT_EQ(fusedNameParts("Gemm_864 + (Unnamed Layer* 849) [Shuffle]"),
              (Names{"Gemm_864", "(Unnamed Layer* 849) [Shuffle]"}));
    EXPECT_EQ(fusedNameParts("[CONVOLUTION]-[aten_ops.convolution.default]-[/features/0/convolution] + "
                             "[RELU]-[aten_ops.relu.default]-[/features/1/relu]"),
              (Names{"/features/0/convolution", "/features/1/relu"}));
    EXPECT_EQ(fusedNameParts("GlobalAveragePool_843"), Names{"GlobalAveragePool_843"});
}

TEST(OnnxLayerNamesTest, ReformatTargets) {
    EXPECT_EQ(reformatTarget("Reformatting CopyNode for Input Tensor 0 to Conv_1 + Relu_2"), "Conv_1 + Relu_2");
    EXPECT_EQ(reformatTarget("Reformatting CopyNode for Output Tensor 0 to Conv_1"), "Conv_1");
    EXPECT_FALSE(reformatTarget("QuantizeLinear_98"));
}

}  // namespace
}  // namespace ql
