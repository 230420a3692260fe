#include "core/exec/kernels/rotary_embedding.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// Position 0 turns by 90 degrees (cos 0, sin 1), position 1 not at all.
const Tensor kCos = floats({1, 2, 2}, {0, 0, 1, 1});
const Tensor kSin = floats({1, 2, 2}, {1, 1, 0, 0});
const Tensor kX = floats({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});

}  // namespace

TEST(RotaryEmbeddingTest, HalvesOrInterleavedPairsTurnByTheirPositionsAngle) {
    auto halves = runOne(NodeSpec("RotaryEmbedding", {{"x", kX}, {"cos", kCos}, {"sin", kSin}}, {}, 23));
    ASSERT_TRUE(halves) << halves.status().message();
    expectNear(*halves, {-3, -4, 1, 2, 5, 6, 7, 8});  // (x1, x2) -> (-x2, x1)
    auto pairs = runOne(NodeSpec("RotaryEmbedding", {{"x", kX}, {"cos", kCos}, {"sin", kSin}}, {}, 23,
                                 [](NodeBuilder& n) { n.i("interleaved", 1); }));
    ASSERT_TRUE(pairs) << pairs.status().message();
    expectNear(*pairs, {-2, 1, -4, 3, 5, 6, 7, 8});
}

TEST(RotaryEmbeddingTest, ThreeDInputPositionIdsAndAPartialRotation) {
    // [batch 1, seq 1, 2 heads x 4]: only the first 2 values of each head turn, by cache row 0 (position id 0).
    const Tensor x = floats({1, 1, 8}, {1, 2, 3, 4, 5, 6, 7, 8});
    const Tensor cos = floats({2, 1}, {0, 1}), sin = floats({2, 1}, {1, 0});
    auto out = runOne(NodeSpec("RotaryEmbedding", {{"x", x}, {"cos", cos}, {"sin", sin}, {"ids", int64s({1, 1}, {0})}},
                               {}, 23, [](NodeBuilder& n) { n.i("num_heads", 2).i("rotary_embedding_dim", 2); }));
    ASSERT_TRUE(out) << out.status().message();
    expectNear(*out, {-2, 1, 3, 4, -6, 5, 7, 8});
}

TEST(RotaryEmbeddingTest, APositionOutsideTheCachesIsAnError) {
    auto out = runOne(NodeSpec("RotaryEmbedding",
                               {{"x", floats({1, 1, 2}, {1, 2})},
                                {"cos", floats({1, 1}, {1})},
                                {"sin", floats({1, 1}, {0})},
                                {"ids", int64s({1, 1}, {3})}},
                               {}, 23, [](NodeBuilder& n) { n.i("num_heads", 1); }));
    ASSERT_FALSE(out);
    EXPECT_NE(out.status().message().find("position 3 is outside the caches"), std::string::npos)
        << out.status().message();
}

}  // namespace ql::test
