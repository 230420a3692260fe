#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "core/exec/kernels/copy_util.h"
#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

Tensor iota(DataType dtype, Shape shape) {
    Tensor t(dtype, shape);
    std::vector<int64_t> v(static_cast<size_t>(t.elementCount()));
    std::iota(v.begin(), v.end(), 0);
    if (dtype == DataType::Int64) return int64s(shape, v);
    std::vector<float> f(v.begin(), v.end());
    return test::floats(shape, f);
}

TEST(TransposeKernelTest, DefaultPermReversesTheAxes) {
    auto out = run({"Transpose", {iota(DataType::Float, {2, 3})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{3, 2}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

// Naive reference: out[i] = in[j] with coordinates permuted one element at a time.
std::vector<int64_t> naiveTranspose(const std::vector<int64_t>& in, const Shape& shape,
                                    const std::vector<int64_t>& perm) {
    Shape outShape(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) outShape[i] = shape[static_cast<size_t>(perm[i])];
    const Strides inStrides = contiguousStrides(shape);
    std::vector<int64_t> out(in.size());
    std::vector<int64_t> pos(perm.size(), 0);
    for (size_t flat = 0; flat < out.size(); ++flat) {
        int64_t rest = static_cast<int64_t>(flat), src = 0;
        for (size_t d = perm.size(); d-- > 0;) {
            pos[d] = rest % outShape[d];
            rest /= outShape[d];
            src += pos[d] * inStrides[static_cast<size_t>(perm[d])];
        }
        out[flat] = in[static_cast<size_t>(src)];
    }
    return out;
}

TEST(TransposeKernelTest, RandomPermutationsOfOddShapesMatchANaiveReference) {
    std::mt19937 rng(1234);
    for (int trial = 0; trial < 30; ++trial) {
        const size_t rank = 1 + rng() % 5;
        Shape shape(rank);
        for (auto& d : shape) d = 1 + static_cast<int64_t>(rng() % 5);
        std::vector<int64_t> perm(rank);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        const Tensor x = iota(DataType::Int64, shape);
        auto out = run({"Transpose", {x}, [&](auto& n) { n.ints("perm", perm); }});
        ASSERT_TRUE(out.isOk()) << out.status().message();
        EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), naiveTranspose(valuesOf<int64_t>(x), shape, perm))
            << "shape " << shapeString(shape) << " perm " << shapeString(perm);
    }
}

TEST(TransposeKernelTest, ZeroSizeAxisGivesAnEmptyPermutedShape) {
    auto out = run({"Transpose", {test::floats({2, 0, 3}, {})}, [](auto& n) { n.ints("perm", {2, 0, 1}); }});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{3, 2, 0}));
}

TEST(TileKernelTest, RepeatsEveryAxis) {
    auto out = run({"Tile", {iota(DataType::Float, {2, 2}), int64s({2, 3})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{4, 6}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]),
              (std::vector<float>{0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3}));
}

TEST(TileKernelTest, ZeroRepeatsGiveAnEmptyAxis) {
    auto out = run({"Tile", {iota(DataType::Float, {2, 2}), int64s({0, 1})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{0, 2}));
}

TEST(ExpandKernelTest, BroadcastsBothWaysAndAddsLeadingAxes) {
    auto out = run({"Expand", {iota(DataType::Int64, {3, 1}), int64s({2, 1, 2})}});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 3, 2}));
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]), (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
}

TEST(ExpandKernelTest, IncompatibleOrNegativeShapesFail) {
    EXPECT_FALSE(run({"Expand", {iota(DataType::Float, {3}), int64s({4})}}).isOk());
    EXPECT_FALSE(run({"Expand", {iota(DataType::Float, {1}), int64s({-2})}}).isOk());
}

TEST(DepthToSpaceKernelTest, DcrAndCrdOrderChannelsDifferently) {
    const Tensor x = iota(DataType::Float, {1, 4, 1, 1});
    auto dcr = run({"DepthToSpace", {x}, [](auto& n) { n.i("blocksize", 2); }});
    auto crd = run({"DepthToSpace", {x}, [](auto& n) { n.i("blocksize", 2).s("mode", "CRD"); }});
    ASSERT_TRUE(dcr.isOk() && crd.isOk());
    EXPECT_EQ(dcr.value()[0].shape(), (Shape{1, 1, 2, 2}));
    EXPECT_EQ(valuesOf<float>(dcr.value()[0]), (std::vector<float>{0, 1, 2, 3}));
    // With 8 channels the modes differ: DCR takes depth-major blocks, CRD channel-major.
    const Tensor y = iota(DataType::Float, {1, 8, 1, 1});
    auto dcr2 = run({"DepthToSpace", {y}, [](auto& n) { n.i("blocksize", 2); }});
    auto crd2 = run({"DepthToSpace", {y}, [](auto& n) { n.i("blocksize", 2).s("mode", "CRD"); }});
    EXPECT_EQ(valuesOf<float>(dcr2.value()[0]), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
    EXPECT_EQ(valuesOf<float>(crd2.value()[0]), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(SpaceToDepthKernelTest, InvertsDepthToSpaceDcr) {
    const Tensor x = iota(DataType::Float, {1, 2, 4, 6});
    auto s2d = run({"SpaceToDepth", {x}, [](auto& n) { n.i("blocksize", 2); }});
    ASSERT_TRUE(s2d.isOk()) << s2d.status().message();
    EXPECT_EQ(s2d.value()[0].shape(), (Shape{1, 8, 2, 3}));
    auto back = run({"DepthToSpace", {s2d.value()[0]}, [](auto& n) { n.i("blocksize", 2); }});
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_EQ(valuesOf<float>(back.value()[0]), valuesOf<float>(x));
}

}  // namespace
}  // namespace ql
