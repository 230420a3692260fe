#include "core/exec/kernels/dft.h"

#include <gtest/gtest.h>

#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql::test {

namespace {

Result<Tensor> dft(const Tensor& x, int64_t opset, const std::function<void(NodeBuilder&)>& attrs,
                   NamedTensors extra = {}) {
    NamedTensors in{{"x", x}};
    in.insert(in.end(), extra.begin(), extra.end());
    return runOne(NodeSpec("DFT", in, {}, opset, attrs));
}

}  // namespace

TEST(DftTest, ImpulsesGiveFlatAndRotatingSpectra) {
    auto flat = dft(floats({1, 4, 1}, {1, 0, 0, 0}), 17, [](NodeBuilder&) {});
    ASSERT_TRUE(flat) << flat.status().message();
    EXPECT_EQ(flat->shape(), (Shape{1, 4, 2}));
    expectNear(*flat, {1, 0, 1, 0, 1, 0, 1, 0});
    auto shifted = dft(floats({1, 4, 1}, {0, 1, 0, 0}), 17, [](NodeBuilder& n) { n.i("onesided", 1); });
    ASSERT_TRUE(shifted) << shifted.status().message();
    EXPECT_EQ(shifted->shape(), (Shape{1, 3, 2}));
    expectNear(*shifted, {1, 0, 0, -1, -1, 0}, 1e-6f);
}

TEST(DftTest, InverseOfAComplexSpectrumAndPaddingToDftLength) {
    auto inverse = dft(floats({1, 4, 2}, {1, 0, 0, -1, -1, 0, 0, 1}), 17, [](NodeBuilder& n) { n.i("inverse", 1); });
    ASSERT_TRUE(inverse) << inverse.status().message();
    expectNear(*inverse, {0, 0, 1, 0, 0, 0, 0, 0}, 1e-6f);
    auto padded = dft(floats({1, 2, 1}, {1, 1}), 17, [](NodeBuilder&) {}, {{"n", int64s({}, {4})}});
    ASSERT_TRUE(padded) << padded.status().message();
    expectNear(*padded, {2, 0, 1, -1, 0, 0, 1, 1}, 1e-6f);
}

TEST(DftTest, Opset20TakesTheAxisAsAnInput) {
    // [1, 2, 2, 1]: transform along axis 2 (the inner one) given as input 2.
    auto out =
        dft(floats({1, 2, 2, 1}, {1, 1, 1, -1}), 20, [](NodeBuilder&) {}, {{"", Tensor()}, {"axis", int64s({}, {2})}});
    ASSERT_TRUE(out) << out.status().message();
    expectNear(*out, {2, 0, 0, 0, 0, 0, 2, 0}, 1e-6f);
}

}  // namespace ql::test
