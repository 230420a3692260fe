#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "core/exec/kernels/average_pool.h"
#include "core/exec/kernels/global_pool.h"
#include "core/exec/kernels/max_pool.h"
#include "core/exec/layout.h"
#include "tests/core/exec/kernels/shape_test_util.h"
#include "tests/support/model_builder.h"

namespace ql {
namespace {

using test::run;
using test::valuesOf;

const Tensor kImage = test::floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});

TEST(AveragePoolKernelTest, CountIncludePadChangesTheDivisorAtTheBorder) {
    auto attrs = [](int64_t include) {
        return [include](test::NodeBuilder& n) {
            n.ints("kernel_shape", {2, 2}).ints("pads", {1, 1, 0, 0}).i("count_include_pad", include);
        };
    };
    auto excluded = run({"AveragePool", {kImage}, attrs(0)});
    auto included = run({"AveragePool", {kImage}, attrs(1)});
    ASSERT_TRUE(excluded.isOk() && included.isOk());
    EXPECT_EQ(excluded.value()[0].shape(), (Shape{1, 1, 3, 3}));
    EXPECT_FLOAT_EQ(valuesOf<float>(excluded.value()[0])[0], 1.0f);   // only the 1 is real
    EXPECT_FLOAT_EQ(valuesOf<float>(included.value()[0])[0], 0.25f);  // 1 / 4 taps
    EXPECT_FLOAT_EQ(valuesOf<float>(included.value()[0])[4], 3.0f);   // (1+2+4+5) / 4
}

TEST(AveragePoolKernelTest, SameUpperAndCeilModeOutputSizes) {
    auto same = run({"AveragePool", {kImage}, [](auto& n) {
                         n.ints("kernel_shape", {2, 2}).ints("strides", {2, 2}).s("auto_pad", "SAME_UPPER");
                     }});
    ASSERT_TRUE(same.isOk()) << same.status().message();
    EXPECT_EQ(same.value()[0].shape(), (Shape{1, 1, 2, 2}));
    EXPECT_FLOAT_EQ(valuesOf<float>(same.value()[0])[3], 9.0f);
    auto ceil = run({"AveragePool", {kImage}, [](auto& n) {
                         n.ints("kernel_shape", {2, 2}).ints("strides", {2, 2}).i("ceil_mode", 1);
                     }});
    ASSERT_TRUE(ceil.isOk()) << ceil.status().message();
    EXPECT_EQ(ceil.value()[0].shape(), (Shape{1, 1, 2, 2}));
    EXPECT_FLOAT_EQ(valuesOf<float>(ceil.value()[0])[1], 4.5f);  // (3 + 6) / 2: the window is cut at the edge
}

TEST(MaxPoolKernelTest, IndicesInRowAndColumnMajorOrder) {
    const Tensor x = test::floats({1, 2, 2, 2}, {1, 4, 3, 2, 5, 6, 8, 7});
    for (int64_t order : {0, 1}) {
        auto out = run({"MaxPool",
                        {x},
                        [&](auto& n) {
                            n.ints("kernel_shape", {2, 2}).i("storage_order", order);
                        },
                        12,
                        {DataType::Float, DataType::Int64}});
        ASSERT_TRUE(out.isOk()) << out.status().message();
        EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{4, 8}));
        // Channel 0: the 4 at (h 0, w 1); channel 1: the 8 at (h 1, w 0), offset by one plane (4).
        const std::vector<int64_t> expected = order == 0 ? std::vector<int64_t>{1, 6} : std::vector<int64_t>{2, 5};
        EXPECT_EQ(valuesOf<int64_t>(out.value()[1]), expected) << "storage_order " << order;
    }
}

TEST(MaxPoolKernelTest, Int8AndDilations) {
    const Tensor x = test::makeTensor<int8_t>(DataType::Int8, {1, 1, 1, 5}, {-5, 9, -3, 2, -1});
    auto out = run({"MaxPool", {x}, [](auto& n) { n.ints("kernel_shape", {1, 2}).ints("dilations", {1, 2}); }, 12});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int8_t>(out.value()[0]), (std::vector<int8_t>{-3, 9, -1}));
}

TEST(GlobalPoolKernelTest, AverageAndMaxOverAllSpatialAxes) {
    const Tensor x = test::floats({1, 2, 1, 3}, {1, 2, 6, -1, -2, -3});
    auto avg = run({"GlobalAveragePool", {x}});
    auto max = run({"GlobalMaxPool", {x}});
    ASSERT_TRUE(avg.isOk() && max.isOk());
    EXPECT_EQ(avg.value()[0].shape(), (Shape{1, 2, 1, 1}));
    EXPECT_EQ(valuesOf<float>(avg.value()[0]), (std::vector<float>{3, -2}));
    EXPECT_EQ(valuesOf<float>(max.value()[0]), (std::vector<float>{6, -1}));
}

// Naive reference straight from the ONNX definition: every kernel tap of every output position.
struct PoolCase {
    Shape input;
    std::vector<int64_t> kernel, strides, dilations, pads;
    bool ceilMode = false, includePad = false;
};

std::vector<float> naivePool(const PoolCase& c, const std::vector<float>& x, bool max, Shape& outShape) {
    const size_t n = c.kernel.size();
    outShape = {c.input[0], c.input[1]};
    for (size_t i = 0; i < n; ++i) {
        const int64_t in = c.input[2 + i], dk = (c.kernel[i] - 1) * c.dilations[i] + 1;
        const double steps =
            static_cast<double>(in + c.pads[i] + c.pads[n + i] - dk) / static_cast<double>(c.strides[i]);
        int64_t o = static_cast<int64_t>(c.ceilMode ? std::ceil(steps) : std::floor(steps)) + 1;
        if (c.ceilMode && (o - 1) * c.strides[i] >= in + c.pads[i]) --o;
        outShape.push_back(o);
    }
    std::vector<float> out;
    const int64_t planes = c.input[0] * c.input[1];
    const int64_t inPlane = shapeElementCount(Shape(c.input.begin() + 2, c.input.end()));
    const int64_t outPlane = shapeElementCount(Shape(outShape.begin() + 2, outShape.end()));
    const int64_t taps = shapeElementCount(c.kernel);
    for (int64_t p = 0; p < planes; ++p) {
        for (int64_t o = 0; o < outPlane; ++o) {
            double sum = 0, best = -std::numeric_limits<double>::infinity();
            int64_t real = 0, padded = 0;
            for (int64_t t = 0; t < taps; ++t) {
                int64_t orest = o, trest = t, flat = 0;
                bool inside = true, inPadded = true;
                for (size_t i = n; i-- > 0;) {
                    const int64_t oi = orest % outShape[2 + i], ki = trest % c.kernel[i];
                    orest /= outShape[2 + i];
                    trest /= c.kernel[i];
                    const int64_t pos = oi * c.strides[i] - c.pads[i] + ki * c.dilations[i];
                    inside = inside && pos >= 0 && pos < c.input[2 + i];
                    inPadded = inPadded && pos >= -c.pads[i] && pos < c.input[2 + i] + c.pads[n + i];
                    int64_t stride = 1;
                    for (size_t j = i + 1; j < n; ++j) stride *= c.input[2 + j];
                    flat += pos * stride;
                }
                padded += inPadded ? 1 : 0;
                if (!inside) continue;
                ++real;
                const double v = x[static_cast<size_t>(p * inPlane + flat)];
                sum += v;
                best = std::max(best, v);
            }
            out.push_back(static_cast<float>(max ? best : sum / static_cast<double>(c.includePad ? padded : real)));
        }
    }
    return out;
}

TEST(PoolKernelTest, RandomPoolsMatchANaiveReference) {
    std::mt19937 rng(2024);
    for (int trial = 0; trial < 40; ++trial) {
        PoolCase c;
        const size_t n = 1 + static_cast<size_t>(trial % 3);
        c.input = {1 + static_cast<int64_t>(rng() % 2), 1 + static_cast<int64_t>(rng() % 3)};
        for (size_t i = 0; i < n; ++i) {
            c.input.push_back(4 + static_cast<int64_t>(rng() % 6));
            c.kernel.push_back(1 + static_cast<int64_t>(rng() % 3));
            c.strides.push_back(1 + static_cast<int64_t>(rng() % 3));
            c.dilations.push_back(trial % 4 == 0 ? 2 : 1);
        }
        for (size_t i = 0; i < 2 * n; ++i) c.pads.push_back(static_cast<int64_t>(rng() % c.kernel[i % n]));
        c.ceilMode = rng() % 2;
        c.includePad = rng() % 2;
        const auto x =
            test::seededFloats(static_cast<size_t>(shapeElementCount(c.input)), static_cast<uint32_t>(trial));
        for (bool max : {false, true}) {
            if (!max && c.dilations[0] != 1) continue;  // AveragePool has dilations only from opset 19
            Shape expectedShape;
            const auto expected = naivePool(c, x, max, expectedShape);
            auto out = run({max ? "MaxPool" : "AveragePool", {test::floats(c.input, x)}, [&](auto& node) {
                                node.ints("kernel_shape", c.kernel).ints("strides", c.strides).ints("pads", c.pads);
                                node.i("ceil_mode", c.ceilMode);
                                if (max)
                                    node.ints("dilations", c.dilations);
                                else
                                    node.i("count_include_pad", c.includePad);
                            }});
            ASSERT_TRUE(out.isOk()) << out.status().message();
            ASSERT_EQ(out.value()[0].shape(), expectedShape) << "trial " << trial;
            const auto got = valuesOf<float>(out.value()[0]);
            for (size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], expected[i], 1e-5) << "trial " << trial << (max ? " max" : " avg") << " at " << i;
        }
    }
}

// Global pooling of a tensor a convolution left in a channels-last or channel-blocked layout (squeeze-excite
// blocks, classifier heads) must give bit for bit what it gives on the plain tensor: the fused plan and the
// node-by-node INT8 simulation read the same values.
TEST(GlobalPoolKernelTest, LayoutInputsPoolExactlyAsThePlainTensor) {
    // 150 channels: a 16-channel blocked layout pads the last block. 12 x 12: the average sums runs of 64
    // pixels (the last one shorter) in parallel.
    for (const Shape& shape : {Shape{2, 20, 5, 7}, Shape{2, 150, 12, 12}}) {
        SCOPED_TRACE(shapeString(shape));
        const int64_t channels = shape[1], pixels = shape[2] * shape[3];
        test::ModelBuilder b;
        b.input("x", DataType::Float, shape);
        b.node("GlobalAveragePool", {"x"}, {"avg"});
        b.node("GlobalMaxPool", {"x"}, {"max"});
        b.output("avg");
        b.output("max");
        auto model = b.load();
        const Graph& g = model->graph();
        auto values = test::seededFloats(static_cast<size_t>(2 * channels * pixels), 3, -4.0f, 4.0f);
        values[37] = std::numeric_limits<float>::quiet_NaN();  // max keeps what it had, as std::max does
        const Tensor plain = Tensor::fromVector<float>(DataType::Float, shape, values);
        auto pool = [&](const Node& node, const Tensor& x) {
            GlobalPoolKernel kernel;
            EXPECT_TRUE(kernel.init(KernelInit{node, g, 17}).isOk());
            const Tensor* inputs[] = {&x};
            std::vector<Tensor> outputs(1);
            KernelContext ctx(node, inputs, outputs, 2);
            const Status status = kernel.compute(ctx);
            EXPECT_TRUE(status.isOk()) << status.message();
            return outputs[0].toFloats();
        };
        using tag = dnnl::memory::format_tag;
        for (const Node& node : g.nodes())
            for (tag layout : {tag::acdb, tag::aBcd16b, tag::aBcd8b}) {
                SCOPED_TRACE(node.opType + " in layout " + std::to_string(static_cast<int>(layout)));
                const Tensor x =
                    onednn::convertTo(plain, dnnl::memory::desc(shape, dnnl::memory::data_type::f32, layout));
                ASSERT_FALSE(x.isPlain());
                const auto expected = pool(node, plain), actual = pool(node, x);
                ASSERT_EQ(actual.size(), static_cast<size_t>(2 * channels));
                for (size_t i = 0; i < actual.size(); ++i)
                    EXPECT_EQ(std::bit_cast<uint32_t>(actual[i]), std::bit_cast<uint32_t>(expected[i]))
                        << "output " << i;
            }
    }
}

// MaxPool and AveragePool of a tensor in a channels-last or channel-blocked layout (a ResNet stem, SqueezeNet's
// ceil-mode pools, DenseNet's transitions) give bit for bit what they give on the plain tensor, with pads,
// ceil_mode, count_include_pad, dilations and a NaN among the values.
TEST(PoolKernelTest, LayoutInputsPoolExactlyAsThePlainTensor) {
    struct Case {
        Shape kernel, strides, pads, dilations;
        int64_t ceil;
    };
    const Case cases[] = {{{3, 3}, {2, 2}, {0, 0, 0, 0}, {1, 1}, 1},
                          {{3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 0},
                          {{2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, 0},
                          {{2, 3}, {1, 2}, {0, 1, 1, 0}, {2, 1}, 1}};
    for (const char* op : {"MaxPool", "AveragePool", "AveragePool with pads counted"})
        for (const Shape& shape : {Shape{2, 20, 11, 9}, Shape{1, 150, 8, 8}})
            for (const Case& c : cases) {
                const bool max = std::string(op) == "MaxPool";
                if (!max && c.dilations != Shape{1, 1}) continue;  // AveragePool has dilations from opset 19
                SCOPED_TRACE(std::string(op) + " " + shapeString(shape) + " kernel " + shapeString(c.kernel) +
                             " pads " + shapeString(c.pads));
                test::ModelBuilder b;
                b.input("x", DataType::Float, shape);
                test::NodeBuilder node = b.node(max ? "MaxPool" : "AveragePool", {"x"}, {"y"})
                                             .ints("kernel_shape", c.kernel)
                                             .ints("strides", c.strides)
                                             .ints("pads", c.pads)
                                             .i("ceil_mode", c.ceil);
                if (max) node.ints("dilations", c.dilations);
                if (std::string(op).ends_with("counted")) node.i("count_include_pad", 1);
                b.output("y");
                auto model = b.load();
                const Graph& g = model->graph();
                auto values = test::seededFloats(static_cast<size_t>(shapeElementCount(shape)), 5, -4.0f, 4.0f);
                values[13] = std::numeric_limits<float>::quiet_NaN();
                const Tensor plain = Tensor::fromVector<float>(DataType::Float, shape, values);
                auto pool = [&](const Tensor& x) {
                    std::unique_ptr<Kernel> kernel;
                    if (max)
                        kernel = std::make_unique<MaxPoolKernel>();
                    else
                        kernel = std::make_unique<AveragePoolKernel>();
                    EXPECT_TRUE(kernel->init(KernelInit{g.nodes()[0], g, 17}).isOk());
                    const Tensor* inputs[] = {&x};
                    std::vector<Tensor> outputs(1);
                    KernelContext ctx(g.nodes()[0], inputs, outputs, 2);
                    const Status status = kernel->compute(ctx);
                    EXPECT_TRUE(status.isOk()) << status.message();
                    return outputs[0];
                };
                const Tensor expected = pool(plain);
                using tag = dnnl::memory::format_tag;
                for (tag layout : {tag::acdb, tag::aBcd16b, tag::aBcd8b}) {
                    SCOPED_TRACE("layout " + std::to_string(static_cast<int>(layout)));
                    const Tensor x =
                        onednn::convertTo(plain, dnnl::memory::desc(shape, dnnl::memory::data_type::f32, layout));
                    const Tensor actual = pool(x);
                    ASSERT_EQ(actual.shape(), expected.shape());
                    const auto a = actual.toFloats(), e = expected.toFloats();
                    for (size_t i = 0; i < a.size(); ++i)
                        ASSERT_EQ(std::bit_cast<uint32_t>(a[i]), std::bit_cast<uint32_t>(e[i])) << "output " << i;
                }
            }
}

}  // namespace
}  // namespace ql
