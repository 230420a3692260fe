// trt-int64-initializer: INT64 constants are clamped to INT32 by TensorRT 8.6 (and kept by 10.x).
#include <gtest/gtest.h>

#include <limits>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

using test::ModelBuilder;

constexpr const char* kRule = "trt-int64-initializer";

void int64Initializer(ModelBuilder& b, const std::string& name, const std::vector<int64_t>& values) {
    auto* t = b.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
}

// x[:, start:end] exported by PyTorch: Slice with INT64 starts/ends.
std::unique_ptr<Model> slice(int64_t end) {
    ModelBuilder b;
    b.input("x", DataType::Float, {1, 8});
    int64Initializer(b, "starts", {2});
    int64Initializer(b, "ends", {end});
    int64Initializer(b, "axes", {1});
    b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"}, "slice");
    b.output("y");
    return b.load();
}

// An INT64 constant used in arithmetic.
std::unique_ptr<Model> addConstant(int64_t value) {
    ModelBuilder b;
    b.input("x", DataType::Int64, {2});
    int64Initializer(b, "c", {1, value});
    b.node("Add", {"x", "c"}, {"y"}, "add");
    b.output("y");
    return b.load();
}

TEST(Int64InitializerRuleTest, OutOfRangeValueIsClampedOnTrt86) {
    const auto model = addConstant(int64_t{1} << 40);
    const auto f = test::findingsOf(*model, kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Warning);
    EXPECT_EQ(f[0].nodeName, "add");
    EXPECT_NE(f[0].message.find("1099511627776"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt10).empty());  // INT64 is native from 9.0
}

TEST(Int64InitializerRuleTest, InRangeValuesGetOneHarmlessInfo) {
    const auto model = addConstant(1 << 20);
    const auto f = test::findingsOf(*model, kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_EQ(f[0].nodeName, "add");
    EXPECT_NE(f[0].message.find("harmless: these 1 INT64 constants fit INT32"), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("Attempting to cast down to INT32"), std::string::npos) << f[0].message;
    EXPECT_TRUE(test::findingsOf(*model, kRule, TrtVersion::Trt10).empty());
}

// Several fitting constants: still one finding, counting them all.
TEST(Int64InitializerRuleTest, AllFittingConstantsShareOneFinding) {
    const auto f = test::findingsOf(*slice(6), kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_NE(f[0].message.find("these 3 INT64 constants"), std::string::npos) << f[0].message;
}

TEST(Int64InitializerRuleTest, NoInt64ConstantsIsQuiet) {
    ModelBuilder b;
    b.input("x", DataType::Float, {2});
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    EXPECT_TRUE(test::findingsOf(*b.load(), kRule, TrtVersion::Trt86).empty());
}

TEST(Int64InitializerRuleTest, SliceToTheEndIsOnlyInformation) {
    const auto f = test::findingsOf(*slice(std::numeric_limits<int64_t>::max()), kRule, TrtVersion::Trt86);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].severity, Severity::Info);
    EXPECT_NE(f[0].message.find("Slice bound"), std::string::npos) << f[0].message;  // not the all-fit finding
}

}  // namespace
}  // namespace ql
