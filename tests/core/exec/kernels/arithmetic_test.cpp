#include <gtest/gtest.h>

#include <random>

#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/type_dispatch.h"
#include "tests/core/exec/kernels/kernel_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;
using test::runModel;
using test::valuesOf;

Result<std::vector<Tensor>> runBinary(const std::string& op, const Tensor& a, const Tensor& b,
                                      DataType outType = DataType::Undefined) {
    ModelBuilder m;
    m.input("a", a.dtype(), a.shape());
    m.input("b", b.dtype(), b.shape());
    m.node(op, {"a", "b"}, {"y"});
    m.output("y", outType == DataType::Undefined ? a.dtype() : outType);
    return runModel(m, {{"a", a}, {"b", b}});
}

TEST(ArithmeticKernelTest, AddBroadcastsRowAndColumn) {
    auto out = runBinary("Add", test::floats({2, 1}, {10, 20}), test::floats({3}, {1, 2, 3}));
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{2, 3}));
    EXPECT_EQ(valuesOf<float>(out.value()[0]), (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST(ArithmeticKernelTest, SubMulDivOnSameShape) {
    const Tensor a = test::floats({4}, {6, 8, -9, 1}), b = test::floats({4}, {2, 4, 3, 4});
    EXPECT_EQ(valuesOf<float>(runBinary("Sub", a, b).value()[0]), (std::vector<float>{4, 4, -12, -3}));
    EXPECT_EQ(valuesOf<float>(runBinary("Mul", a, b).value()[0]), (std::vector<float>{12, 32, -27, 4}));
    EXPECT_EQ(valuesOf<float>(runBinary("Div", a, b).value()[0]), (std::vector<float>{3, 2, -3, 0.25f}));
}

TEST(ArithmeticKernelTest, IntegerDivisionTruncatesAndZeroDivisorGivesZero) {
    const Tensor a = test::makeTensor<int32_t>(DataType::Int32, {4}, {7, -7, 5, INT32_MIN});
    const Tensor b = test::makeTensor<int32_t>(DataType::Int32, {4}, {2, 2, 0, -1});
    auto out = runBinary("Div", a, b);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(valuesOf<int32_t>(out.value()[0]), (std::vector<int32_t>{3, -3, 0, INT32_MIN}));
}

TEST(ArithmeticKernelTest, Uint8AdditionWrapsAround) {
    const Tensor a = test::makeTensor<uint8_t>(DataType::UInt8, {2}, {250, 3});
    const Tensor b = test::makeTensor<uint8_t>(DataType::UInt8, {1}, {10});
    EXPECT_EQ(valuesOf<uint8_t>(runBinary("Add", a, b).value()[0]), (std::vector<uint8_t>{4, 13}));
}

TEST(ArithmeticKernelTest, Float16IsComputedInFloatAndRoundedBack) {
    const Tensor h = fromFloatTensor(test::floats({2}, {1.5f, 2.0f}), DataType::Float16);
    auto out = runBinary("Mul", h, h);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].dtype(), DataType::Float16);
    EXPECT_EQ(valuesOf<float>(toFloatTensor(out.value()[0])), (std::vector<float>{2.25f, 4.0f}));
}

// Every numeric dtype the ONNX backend tests use for Add/Sub/Mul/Div.
TEST(ArithmeticKernelTest, EveryNumericDtype) {
    const std::vector<double> a = {6, 9, 12}, b = {3, 3, 4};
    for (DataType dtype : {DataType::Float, DataType::Double, DataType::Int8, DataType::UInt8, DataType::Int16,
                           DataType::UInt16, DataType::Int32, DataType::UInt32, DataType::Int64, DataType::UInt64,
                           DataType::Float16, DataType::BFloat16}) {
        SCOPED_TRACE(dataTypeName(dtype));
        Tensor ta(dtype, {3}), tb(dtype, {3});
        visitNumeric(dtype, [&]<typename T>(T) {
            for (size_t i = 0; i < 3; ++i) {
                static_cast<T*>(ta.rawData())[i] = fromArithmetic<T>(static_cast<typename ArithmeticOf<T>::type>(a[i]));
                static_cast<T*>(tb.rawData())[i] = fromArithmetic<T>(static_cast<typename ArithmeticOf<T>::type>(b[i]));
            }
        });
        const std::vector<std::pair<std::string, std::vector<float>>> cases = {
            {"Add", {9, 12, 16}}, {"Sub", {3, 6, 8}}, {"Mul", {18, 27, 48}}, {"Div", {2, 3, 3}}};
        for (const auto& [op, expected] : cases) {
            auto out = runBinary(op, ta, tb);
            ASSERT_TRUE(out.isOk()) << op << ": " << out.status().message();
            EXPECT_EQ(out.value()[0].dtype(), dtype);
            EXPECT_EQ(out.value()[0].toFloats(), expected) << op;
        }
    }
}

TEST(ArithmeticKernelTest, ZeroSizeDimensionGivesEmptyOutput) {
    auto out = runBinary("Add", Tensor(DataType::Float, {0, 3}), test::floats({1, 3}, {1, 2, 3}));
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_EQ(out.value()[0].shape(), (Shape{0, 3}));
}

TEST(ArithmeticKernelTest, IncompatibleShapesFailNamingTheShapes) {
    ModelBuilder m;
    m.input("a", DataType::Float, {-1});
    m.input("b", DataType::Float, {-1});
    m.node("Add", {"a", "b"}, {"y"});
    m.output("y");
    auto out = runModel(m, {{"a", test::floats({2}, {1, 2})}, {"b", test::floats({3}, {1, 2, 3})}});
    ASSERT_FALSE(out.isOk());
    EXPECT_NE(out.status().message().find("[2] and [3]"), std::string::npos) << out.status().message();
}

// Runs a (op) b and compares every element with the naive index computation of numpy broadcasting.
void expectMatchesNaive(const std::string& op, const Shape& sa, const Shape& sb, std::mt19937& rng) {
    SCOPED_TRACE(op + " " + shapeString(sa) + " " + shapeString(sb));
    const Shape so = *broadcastShapes(sa, sb);
    Tensor a(DataType::Float, sa), b(DataType::Float, sb);
    std::uniform_real_distribution<float> dist(0.5f, 2.0f);  // no zero divisors, either sign by the sign flip
    for (float& v : a.span<float>()) v = dist(rng) * (rng() % 2 ? 1.0f : -1.0f);
    for (float& v : b.span<float>()) v = dist(rng) * (rng() % 2 ? 1.0f : -1.0f);
    auto out = runBinary(op, a, b);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    const Tensor& y = out.value()[0];
    ASSERT_EQ(y.shape(), so);
    auto index = [&](const Shape& s, const std::vector<int64_t>& idx) {
        int64_t off = 0;
        for (size_t d = 0; d < s.size(); ++d) off = off * s[d] + (s[d] == 1 ? 0 : idx[idx.size() - s.size() + d]);
        return off;
    };
    auto apply = [&](float x, float z) {
        return op == "Add" ? x + z : op == "Sub" ? x - z : op == "Mul" ? x * z : x / z;
    };
    std::vector<int64_t> idx(so.size(), 0);
    for (int64_t i = 0; i < y.elementCount(); ++i) {
        int64_t rest = i;
        for (size_t d = so.size(); d-- > 0;) {
            idx[d] = rest % so[d];
            rest /= so[d];
        }
        ASSERT_EQ(y.data<float>()[i], apply(a.data<float>()[index(sa, idx)], b.data<float>()[index(sb, idx)])) << i;
    }
}

// Broadcasting at odd shapes against a naive index computation.
TEST(ArithmeticKernelTest, RandomBroadcastMatchesNaiveReference) {
    std::mt19937 rng(7767517);
    const std::vector<std::pair<Shape, Shape>> cases = {
        {{3, 1, 5, 7}, {4, 1, 7}}, {{1, 13}, {11, 1}}, {{2, 3, 1}, {1}}, {{5, 1, 1, 3}, {5, 4, 2, 1}}, {{}, {3, 2}}};
    for (const auto& [sa, sb] : cases) expectMatchesNaive("Sub", sa, sb, rng);
}

// Large float operands run on oneDNN's binary (a transformer's bias adds, LayerNormalization's per-row Sub / Div,
// scalar scales); a broadcast of the first operand (not commutable for Sub / Div) falls back to our own loops.
TEST(ArithmeticKernelTest, LargeFloatBroadcastsMatchNaiveReference) {
    std::mt19937 rng(1234);
    const std::vector<std::pair<Shape, Shape>> cases = {{{2, 197, 192}, {192}},       {{2, 197, 192}, {2, 197, 1}},
                                                        {{3, 197, 64}, {1, 1, 1}},    {{192}, {2, 197, 192}},
                                                        {{1, 197, 1}, {2, 197, 192}}, {{4, 33, 65}, {4, 33, 65}}};
    for (const std::string op : {"Add", "Sub", "Mul", "Div"})
        for (const auto& [sa, sb] : cases) expectMatchesNaive(op, sa, sb, rng);
}

}  // namespace
}  // namespace ql
