#include "core/exec/kernels/copy_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ql {
namespace {

TEST(CopyUtilTest, ContiguousStridesAreRowMajor) {
    EXPECT_EQ(contiguousStrides({2, 3, 4}), (Strides{12, 4, 1}));
    EXPECT_EQ(contiguousStrides({}), (Strides{}));
}

TEST(CopyUtilTest, NormalizeAxisAcceptsNegativeAndRejectsOutOfRange) {
    EXPECT_EQ(normalizeAxis(-1, 3), 2);
    EXPECT_EQ(normalizeAxis(2, 3), 2);
    EXPECT_FALSE(normalizeAxis(3, 3).has_value());
    EXPECT_FALSE(normalizeAxis(-4, 3).has_value());
}

TEST(CopyUtilTest, BroadcastShapesFollowsNumpy) {
    EXPECT_EQ(broadcastShapes({3, 1}, {2, 1, 4}), (Shape{2, 3, 4}));
    EXPECT_FALSE(broadcastShapes({3}, {4}).has_value());
}

TEST(CopyUtilTest, StridedCopyWalksBackwardsWithNegativeStrides) {
    const std::vector<int16_t> src{0, 1, 2, 3, 4, 5};
    std::vector<int16_t> dst(6, -1);
    const Strides dstStrides{3, 1}, srcStrides{-3, -1};
    // Reading from the last element backwards reverses both axes of a [2, 3] block.
    stridedCopy({2, 3}, reinterpret_cast<std::byte*>(dst.data()), dstStrides,
                reinterpret_cast<const std::byte*>(src.data() + 5), srcStrides, sizeof(int16_t));
    EXPECT_EQ(dst, (std::vector<int16_t>{5, 4, 3, 2, 1, 0}));
}

TEST(CopyUtilTest, StridedCopyRepeatsWithZeroStrideAndHandlesOddElementSizes) {
    struct Triple {
        uint8_t v[3];
    };
    const Triple src{{7, 8, 9}};
    std::vector<Triple> dst(4);
    const Strides dstStrides{1}, srcStrides{0};
    stridedCopy({4}, reinterpret_cast<std::byte*>(dst.data()), dstStrides, reinterpret_cast<const std::byte*>(&src),
                srcStrides, sizeof(Triple));
    for (const Triple& t : dst) EXPECT_EQ(t.v[2], 9);
}

TEST(CopyUtilTest, FillElementsCoversOddCounts) {
    Tensor t(DataType::Int64, {7});
    const int64_t v = -42;
    fillElements(t, &v);
    for (int64_t x : t.span<int64_t>()) EXPECT_EQ(x, -42);
}

}  // namespace
}  // namespace ql
