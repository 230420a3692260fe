#include "core/exec/kernels/tensor_scatter.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

// A cache of 2 batch entries x 4 positions x 1 value, and 2 new positions per entry.
const Tensor kCache = floats({2, 4, 1}, {0, 0, 0, 0, 0, 0, 0, 0});
const Tensor kUpdate = floats({2, 2, 1}, {1, 2, 3, 4});

}  // namespace

TEST(TensorScatterTest, LinearWritesAtEachEntrysIndex) {
    auto out = runOne(
        NodeSpec("TensorScatter", {{"cache", kCache}, {"update", kUpdate}, {"at", int64s({2}, {1, 2})}}, {}, 24));
    ASSERT_TRUE(out) << out.status().message();
    expectNear(*out, {0, 1, 2, 0, 0, 0, 3, 4});
    auto start = runOne(NodeSpec("TensorScatter", {{"cache", kCache}, {"update", kUpdate}}, {}, 24));
    ASSERT_TRUE(start) << start.status().message();
    expectNear(*start, {1, 2, 0, 0, 3, 4, 0, 0});
}

TEST(TensorScatterTest, CircularWrapsAndLinearRefusesToOverflow) {
    const NamedTensors in{{"cache", kCache}, {"update", kUpdate}, {"at", int64s({2}, {3, 0})}};
    auto wrapped = runOne(NodeSpec("TensorScatter", in, {}, 24, [](NodeBuilder& n) { n.s("mode", "circular"); }));
    ASSERT_TRUE(wrapped) << wrapped.status().message();
    expectNear(*wrapped, {2, 0, 0, 1, 3, 4, 0, 0});
    auto linear = runOne(NodeSpec("TensorScatter", in, {}, 24));
    ASSERT_FALSE(linear);
    EXPECT_NE(linear.status().message().find("leaves the cache's axis of 4 (use mode circular?)"), std::string::npos)
        << linear.status().message();
}

}  // namespace ql::test
