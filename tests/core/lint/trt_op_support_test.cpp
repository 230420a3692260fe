// The compiled-in TensorRT operator table.
#include "core/lint/trt_op_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ql {
namespace {

TEST(TrtOpSupportTest, TableIsSortedForLookup) {
    const auto table = trtOpTable();
    EXPECT_EQ(table.size(), 200u);  // the 10.15 table lists 200 operators
    EXPECT_TRUE(
        std::is_sorted(table.begin(), table.end(), [](const TrtOpRow& a, const TrtOpRow& b) { return a.op < b.op; }));
}

TEST(TrtOpSupportTest, LooksUpPerVersion) {
    EXPECT_EQ(trtOpSupport("Conv", TrtVersion::Trt10), TrtOpSupport::Yes);
    EXPECT_EQ(trtOpSupport("Conv", TrtVersion::Trt86), TrtOpSupport::Yes);
    EXPECT_EQ(trtOpSupport("QLinearConv", TrtVersion::Trt10), TrtOpSupport::No);
    EXPECT_EQ(trtOpSupport("Hardmax", TrtVersion::Trt86), TrtOpSupport::No);
    EXPECT_EQ(trtOpSupport("Hardmax", TrtVersion::Trt10), TrtOpSupport::Yes);
    EXPECT_EQ(trtOpSupport("Gelu", TrtVersion::Trt86), TrtOpSupport::Absent);
    EXPECT_EQ(trtOpSupport("NoSuchOp", TrtVersion::Trt10), TrtOpSupport::Absent);
}

}  // namespace
}  // namespace ql
