#include <gtest/gtest.h>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::NodeRun;
using test::run;
using test::valuesOf;

const Tensor kData = test::floats({2, 3, 4}, std::vector<float>(24, 1.5f));

TEST(ReshapeKernelTest, ZeroCopiesTheInputDimAndMinusOneIsInferred) {
    auto out = run({"Reshape", {kData, int64s({0, -1})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 12}));
}

TEST(ReshapeKernelTest, AllowZeroKeepsALiteralZeroDimension) {
    const Tensor empty = test::floats({0, 3}, {});
    auto out = run({"Reshape", {empty, int64s({3, 0})}, [](auto& n) { n.i("allowzero", 1); }, 14});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{3, 0}));
}

TEST(ReshapeKernelTest, MismatchedElementCountNamesTheNode) {
    auto out = run({"Reshape", {kData, int64s({5, 5})}});
    ASSERT_FALSE(out.isOk());
    EXPECT_NE(out.status().message().find("Op (Reshape)"), std::string::npos);
}

TEST(ReshapeKernelTest, ViewOpsShareTheInputStorage) {
    // Through the executor directly, so the output is not cloned.
    test::ModelBuilder b;
    b.input("x", DataType::Float, {2, 3, 4});
    b.initializer("s", DataType::Int64, {2}, {6, 4});
    b.initializer("axes", DataType::Int64, {1}, {0});
    b.node("Reshape", {"x", "s"}, {"r"});
    b.node("Unsqueeze", {"r", "axes"}, {"u"});
    b.node("Flatten", {"u"}, {"f"}).i("axis", 2);
    b.node("Squeeze", {"f"}, {"y"});
    b.output("y");
    auto model = b.load();
    auto exec = Executor::create(model->graph());
    ASSERT_TRUE(exec.isOk()) << exec.status().message();
    const Tensor x = kData.clone();
    auto out = exec.value()->run({{"x", x}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].second.shape(), (Shape{6, 4}));
    EXPECT_EQ(out.value()[0].second.rawData(), x.rawData());
}

TEST(FlattenKernelTest, NegativeAndZeroAxes) {
    auto neg = run({"Flatten", {kData}, [](auto& n) { n.i("axis", -1); }});
    ASSERT_TRUE(neg.isOk()) << neg.status().message();
    EXPECT_EQ(neg.value()[0].shape(), (Shape{6, 4}));
    auto zero = run({"Flatten", {kData}, [](auto& n) { n.i("axis", 0); }});
    ASSERT_TRUE(zero.isOk()) << zero.status().message();
    EXPECT_EQ(zero.value()[0].shape(), (Shape{1, 24}));
}

TEST(SqueezeKernelTest, AxesAsAttributeBeforeOpset13AndAsInputAfter) {
    const Tensor x = test::floats({1, 3, 1, 2}, std::vector<float>(6, 0.0f));
    auto attr = run({"Squeeze", {x}, [](auto& n) { n.ints("axes", {-2}); }, 11});
    ASSERT_TRUE(attr.isOk()) << attr.status().message();
    EXPECT_EQ(attr.value()[0].shape(), (Shape{1, 3, 2}));
    auto input = run({"Squeeze", {x, int64s({0})}});
    ASSERT_TRUE(input.isOk()) << input.status().message();
    EXPECT_EQ(input.value()[0].shape(), (Shape{3, 1, 2}));
    auto all = run({"Squeeze", {x}});
    ASSERT_TRUE(all.isOk()) << all.status().message();
    EXPECT_EQ(all.value()[0].shape(), (Shape{3, 2}));
}

TEST(SqueezeKernelTest, SqueezingANonUnitAxisFails) {
    const Tensor x = test::floats({1, 3}, {1, 2, 3});
    EXPECT_FALSE(run({"Squeeze", {x, int64s({1})}}).isOk());
}

TEST(UnsqueezeKernelTest, AxesCountInTheOutputRankAndMayBeNegative) {
    const Tensor x = test::floats({3, 4}, std::vector<float>(12, 0.0f));
    auto out = run({"Unsqueeze", {x, int64s({0, -1})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{1, 3, 4, 1}));
    auto attr = run({"Unsqueeze", {x}, [](auto& n) { n.ints("axes", {1}); }, 11});
    ASSERT_TRUE(attr.isOk()) << attr.status().message();
    EXPECT_EQ(attr.value()[0].shape(), (Shape{3, 1, 4}));
}

TEST(ShapeKernelTest, StartAndEndSliceTheDimensions) {
    auto all = run({"Shape", {kData}, [](auto&) {}, 15, {DataType::Int64}});
    ASSERT_TRUE(all.isOk()) << all.status().message();
    EXPECT_EQ(valuesOf<int64_t>(all.value()[0]), (std::vector<int64_t>{2, 3, 4}));
    auto part = run({"Shape", {kData}, [](auto& n) { n.i("start", -2).i("end", 10); }, 15, {DataType::Int64}});
    ASSERT_TRUE(part.isOk()) << part.status().message();
    EXPECT_EQ(valuesOf<int64_t>(part.value()[0]), (std::vector<int64_t>{3, 4}));
}

TEST(SizeKernelTest, CountsElementsAsAnInt64Scalar) {
    auto out = run({"Size", {kData}, [](auto&) {}, 13, {DataType::Int64}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].rank(), 0u);
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{24}));
}

}  // namespace
}  // namespace ql
