#include "core/common/element_count.h"

#include <gtest/gtest.h>

#include <vector>

namespace ql {
namespace {

TEST(ElementCount, MultipliesDimensions) {
    EXPECT_EQ(checkedElementCount(std::vector<int64_t>{2, 3, 4}), 24);
    EXPECT_EQ(checkedElementCount(std::vector<int64_t>{}), 1);
    EXPECT_EQ(checkedElementCount(std::vector<int64_t>{0, int64_t{1} << 62, int64_t{1} << 62}), 0);
}

TEST(ElementCount, RefusesNegativeDimensionsAndOverflow) {
    EXPECT_FALSE(checkedElementCount(std::vector<int64_t>{2, -1}));
    EXPECT_FALSE(checkedElementCount(std::vector<int64_t>{int64_t{1} << 40, int64_t{1} << 40}));
}

TEST(ByteSize, RefusesWhatOverflowsOnceMultipliedByTheElementSize) {
    EXPECT_EQ(checkedByteSize(std::vector<int64_t>{2, 3}, 4), 24u);
    EXPECT_FALSE(checkedByteSize(std::vector<int64_t>{int64_t{1} << 62}, 8));
}

}  // namespace
}  // namespace ql
