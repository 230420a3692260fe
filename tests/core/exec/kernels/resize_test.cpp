#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "tests/core/exec/kernels/shape_test_util.h"

namespace ql {
namespace {

using test::int64s;
using test::run;
using test::valuesOf;

const Tensor kRow = test::floats({1, 1, 1, 2}, {1, 3});

Result<std::vector<Tensor>> resize(const Tensor& x, std::vector<float> scales,
                                   const std::function<void(test::NodeBuilder&)>& attributes) {
    const Tensor s = test::floats({static_cast<int64_t>(scales.size())}, scales);
    return run({"Resize", {x, Tensor(), s}, attributes, 13});
}

TEST(ResizeKernelTest, NearestModesRoundHalfwayDifferently) {
    // Upsampling by 4 with asymmetric coordinates puts output 2 exactly half-way between inputs 0 and 1.
    auto floor = resize(kRow, {1, 1, 1, 4}, [](auto& n) {
        n.s("coordinate_transformation_mode", "asymmetric").s("nearest_mode", "round_prefer_floor");
    });
    auto ceil = resize(kRow, {1, 1, 1, 4}, [](auto& n) {
        n.s("coordinate_transformation_mode", "asymmetric").s("nearest_mode", "round_prefer_ceil");
    });
    ASSERT_TRUE(floor.isOk() && ceil.isOk());
    EXPECT_EQ(valuesOf<float>(floor.value()[0]), (std::vector<float>{1, 1, 1, 3, 3, 3, 3, 3}));
    EXPECT_EQ(valuesOf<float>(ceil.value()[0]), (std::vector<float>{1, 1, 3, 3, 3, 3, 3, 3}));
}

TEST(ResizeKernelTest, LinearHalfPixelClampsAtTheEdges) {
    auto out = resize(kRow, {1, 1, 1, 2}, [](auto& n) { n.s("mode", "linear"); });
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1, 1.5f, 2.5f, 3}));
}

TEST(ResizeKernelTest, AlignCornersKeepsTheEndPoints) {
    auto out = resize(kRow, {1, 1, 1, 1.5f},
                      [](auto& n) { n.s("mode", "linear").s("coordinate_transformation_mode", "align_corners"); });
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1, 2, 3}));
}

TEST(ResizeKernelTest, SizesInputAndTfCropAndResizeExtrapolation) {
    const Tensor x = test::floats({1, 4}, {0, 1, 2, 3});
    const Tensor roi = test::floats({4}, {0, 0.5f, 1, 1.5f});
    auto out = run({"Resize",
                    {x, roi, Tensor(), int64s({1, 3})},
                    [](auto& n) {
                        n.s("mode", "linear").s("coordinate_transformation_mode", "tf_crop_and_resize");
                        n.f("extrapolation_value", -1.0f);
                    },
                    13});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    // The crop spans input x in [1.5, 4.5]: 1.5, 3, then 4.5 lies outside.
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{1.5f, 3, -1}));
}

TEST(ResizeKernelTest, NearestCopiesInt64Exactly) {
    const Tensor x = int64s({1, 2}, {(int64_t{1} << 60) + 1, -7});
    auto out = resize(x, {1, 2}, [](auto&) {});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int64_t>(out.value()[0]),
              (std::vector<int64_t>{(int64_t{1} << 60) + 1, (int64_t{1} << 60) + 1, -7, -7}));
}

TEST(ResizeKernelTest, Uint8LinearRoundsAndCubicSaturates) {
    const Tensor x = test::makeTensor<uint8_t>(DataType::UInt8, {1, 4}, {0, 255, 255, 0});
    auto linear =
        resize(x, {1, 2}, [](auto& n) { n.s("mode", "linear").s("coordinate_transformation_mode", "asymmetric"); });
    ASSERT_TRUE(linear.isOk()) << linear.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(linear.value()[0]), (std::vector<uint8_t>{0, 128, 255, 255, 255, 128, 0, 0}));
    // Cubic overshoots below 0 and past 255 next to the steps; the result saturates instead of wrapping.
    auto cubic = resize(x, {1, 2}, [](auto& n) { n.s("mode", "cubic"); });
    ASSERT_TRUE(cubic.isOk()) << cubic.status().message();
    EXPECT_EQ(valuesOf<uint8_t>(cubic.value()[0])[0], 0);
    EXPECT_EQ(valuesOf<uint8_t>(cubic.value()[0])[3], 255);
}

TEST(UpsampleKernelTest, ScalesAttributeAtOpset7AndInputAtOpset9FloorNearest) {
    const Tensor x = test::floats({1, 2}, {1, 2});
    auto seven = run({"Upsample", {x}, [](auto& n) { n.floats("scales", {1, 3}); }, 7});
    ASSERT_TRUE(seven.isOk()) << seven.status().message();
    EXPECT_EQ(valuesOf<float>(seven.value()[0]), (std::vector<float>{1, 1, 1, 2, 2, 2}));
    auto nine = run({"Upsample", {x, test::floats({2}, {1, 2})}, [](auto& n) { n.s("mode", "linear"); }, 9});
    ASSERT_TRUE(nine.isOk()) << nine.status().message();
    EXPECT_EQ(valuesOf<float>(nine.value()[0]), (std::vector<float>{1, 1.5f, 2, 2}));
}

// Independent reference, transcribed from the ONNX reference implementation (onnx/reference/ops/op_resize.py):
// per axis, the coefficients over the n input points nearest to the original coordinate (edge padded), then
// the tensor product over axes.
struct Axis1D {
    std::vector<int64_t> index;
    std::vector<double> weight;
    bool outside = false;
};

Axis1D referenceAxis(const std::string& mode, const std::string& coord, const std::string& nearest, double a,
                     bool exclude, int64_t in, double scale, int64_t x) {
    const double width = scale * static_cast<double>(in);
    double xo = 0;
    if (coord == "align_corners")
        xo = width == 1 ? 0 : static_cast<double>(x) * (in - 1) / (width - 1);
    else if (coord == "asymmetric")
        xo = static_cast<double>(x) / scale;
    else if (coord == "pytorch_half_pixel")
        xo = width == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
    else if (coord == "tf_half_pixel_for_nearest")
        xo = (x + 0.5) / scale;
    else
        xo = (x + 0.5) / scale - 0.5;
    const auto xi = static_cast<int64_t>(std::floor(xo));
    const double ratio = xo == std::floor(xo) ? 1.0 : xo - static_cast<double>(xi);
    std::vector<double> c;
    if (mode == "nearest") {
        bool up = ratio == 1.0;
        if (ratio != 1.0) {
            if (nearest == "round_prefer_floor")
                up = ratio > 0.5;
            else if (nearest == "round_prefer_ceil")
                up = ratio >= 0.5;
            else if (nearest == "ceil")
                up = true;
            else
                up = false;
        }
        c = {up ? 0.0 : 1.0, up ? 1.0 : 0.0};
    } else if (mode == "linear") {
        c = {1 - ratio, ratio};
    } else {
        const double r = ratio;
        c = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
             ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
             ((a * (2 - r) - 5 * a) * (2 - r) + 8 * a) * (2 - r) - 4 * a};
    }
    // The n points nearest to xo (ties to the lower index), in ascending order.
    const auto n = static_cast<int64_t>(c.size());
    std::vector<int64_t> cand;
    for (int64_t i = xi - n; i <= xi + n; ++i) cand.push_back(i);
    std::stable_sort(cand.begin(), cand.end(), [&](int64_t p, int64_t q) {
        return std::abs(xo - static_cast<double>(p)) < std::abs(xo - static_cast<double>(q));
    });
    cand.resize(static_cast<size_t>(n));
    std::sort(cand.begin(), cand.end());
    Axis1D r;
    double sum = 0;
    for (size_t k = 0; k < c.size(); ++k) {
        if (exclude && (cand[k] < 0 || cand[k] >= in)) c[k] = 0;
        sum += c[k];
    }
    for (size_t k = 0; k < c.size(); ++k) {
        r.index.push_back(std::clamp<int64_t>(cand[k], 0, in - 1));
        r.weight.push_back(exclude ? c[k] / sum : c[k]);
    }
    return r;
}

TEST(ResizeKernelTest, RandomResizesMatchTheOnnxReference) {
    std::mt19937 rng(99);
    const std::vector<std::string> modes{"nearest", "linear", "cubic"};
    const std::vector<std::string> coords{"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                          "tf_half_pixel_for_nearest"};
    const std::vector<std::string> nearests{"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
    const std::vector<float> scaleChoices{0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f};
    for (int trial = 0; trial < 60; ++trial) {
        const std::string mode = modes[rng() % modes.size()], coord = coords[rng() % coords.size()];
        const std::string nearest = nearests[rng() % nearests.size()];
        const bool exclude = mode == "cubic" && rng() % 2;
        const float a = rng() % 2 ? -0.75f : -0.5f;
        const Shape in{1, 1 + static_cast<int64_t>(rng() % 2), 3 + static_cast<int64_t>(rng() % 5),
                       3 + static_cast<int64_t>(rng() % 5)};
        const std::vector<float> scales{1, 1, scaleChoices[rng() % scaleChoices.size()],
                                        scaleChoices[rng() % scaleChoices.size()]};
        const auto x = test::seededFloats(static_cast<size_t>(shapeElementCount(in)), static_cast<uint32_t>(trial));
        auto out = resize(test::floats(in, x), scales, [&](auto& n) {
            n.s("mode", mode).s("coordinate_transformation_mode", coord).s("nearest_mode", nearest);
            n.f("cubic_coeff_a", a).i("exclude_outside", exclude);
        });
        ASSERT_TRUE(out.isOk()) << out.status().message();
        const Tensor& y = out.value()[0];
        Shape expectedShape = in;
        for (size_t d = 2; d < 4; ++d)
            expectedShape[d] = static_cast<int64_t>(std::floor(static_cast<double>(in[d]) * scales[d]));
        ASSERT_EQ(y.shape(), expectedShape);
        const auto got = valuesOf<float>(y);
        // Every axis is mapped, the unit-scale channel axis too (it can shift under tf_half_pixel_for_nearest).
        for (int64_t c = 0; c < in[1]; ++c) {
            const Axis1D ac = referenceAxis(mode, coord, nearest, a, exclude, in[1], 1.0, c);
            for (int64_t h = 0; h < expectedShape[2]; ++h) {
                const Axis1D ah = referenceAxis(mode, coord, nearest, a, exclude, in[2], scales[2], h);
                for (int64_t w = 0; w < expectedShape[3]; ++w) {
                    const Axis1D aw = referenceAxis(mode, coord, nearest, a, exclude, in[3], scales[3], w);
                    double expected = 0;
                    for (size_t k = 0; k < ac.index.size(); ++k)
                        for (size_t i = 0; i < ah.index.size(); ++i)
                            for (size_t j = 0; j < aw.index.size(); ++j)
                                expected +=
                                    ac.weight[k] * ah.weight[i] * aw.weight[j] *
                                    x[static_cast<size_t>((ac.index[k] * in[2] + ah.index[i]) * in[3] + aw.index[j])];
                    const float actual = got[static_cast<size_t>((c * expectedShape[2] + h) * expectedShape[3] + w)];
                    ASSERT_NEAR(actual, expected, 1e-4) << "trial " << trial << " " << mode << " " << coord << " "
                                                        << nearest << " at c" << c << " h" << h << " w" << w;
                }
            }
        }
    }
}

}  // namespace
}  // namespace ql

namespace ql::test {

namespace {

const Tensor kTwoByFour = floats({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});

Result<Tensor> resizeSizes(const Tensor& x, const std::vector<int64_t>& sizes, int64_t opset,
                           const std::function<void(NodeBuilder&)>& attrs) {
    return runOne(NodeSpec(
        "Resize",
        {{"x", x}, {"", Tensor()}, {"", Tensor()}, {"sizes", int64s({static_cast<int64_t>(sizes.size())}, sizes)}}, {},
        opset, attrs));
}

}  // namespace

TEST(ResizeOpset18Test, SizesForListedAxesKeepingTheAspectRatio) {
    // The spec's examples: sizes [1, 3] for axes 2 and 3; one scale (0.5 not larger, 0.75 not smaller) for both.
    auto notLarger = resizeSizes(kTwoByFour, {1, 3}, 18, [](NodeBuilder& n) {
        n.ints("axes", {2, 3}).s("keep_aspect_ratio_policy", "not_larger").s("mode", "nearest");
    });
    ASSERT_TRUE(notLarger) << notLarger.status().message();
    EXPECT_EQ(notLarger->shape(), (Shape{1, 1, 1, 2}));
    expectNear(*notLarger, {1, 3});
    auto notSmaller = resizeSizes(kTwoByFour, {1, 3}, 18, [](NodeBuilder& n) {
        n.ints("axes", {2, 3}).s("keep_aspect_ratio_policy", "not_smaller").s("mode", "nearest");
    });
    ASSERT_TRUE(notSmaller) << notSmaller.status().message();
    EXPECT_EQ(notSmaller->shape(), (Shape{1, 1, 2, 3}));
    expectNear(*notSmaller, {1, 2, 4, 5, 6, 8});
}

TEST(ResizeOpset18Test, ScalesForListedAxes) {
    auto out = runOne(
        NodeSpec("Resize", {{"x", floats({1, 1, 2, 2}, {1, 2, 3, 4})}, {"", Tensor()}, {"scales", floats({2}, {2, 3})}},
                 {}, 18, [](NodeBuilder& n) {
                     n.ints("axes", {2, 3}).s("mode", "nearest");
                 }));
    ASSERT_TRUE(out) << out.status().message();
    EXPECT_EQ(out->shape(), (Shape{1, 1, 4, 6}));
    expectNear(*out, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
}

TEST(ResizeOpset18Test, Opset19HalfPixelSymmetricDownsampling) {
    // The spec's example: [1, 2, 3, 4] at scale 0.6 gives [1.6666666, 3.3333333].
    auto out = runOne(NodeSpec(
        "Resize", {{"x", floats({1, 1, 1, 4}, {1, 2, 3, 4})}, {"", Tensor()}, {"scales", floats({4}, {1, 1, 1, 0.6f})}},
        {}, 19,
        [](NodeBuilder& n) { n.s("mode", "linear").s("coordinate_transformation_mode", "half_pixel_symmetric"); }));
    ASSERT_TRUE(out) << out.status().message();
    expectNear(*out, {1.6666666f, 3.3333333f}, 1e-5f);
}

}  // namespace ql::test
