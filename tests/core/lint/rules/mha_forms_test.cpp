// trt-mha-fusion over the attention forms exporters write: PyTorch (a scale on the scores, Pow(H, -0.5), or
// scaled_dot_product_attention's sqrt(1/sqrt(H)) from Shape(q) on Q and K), Hugging Face (a Div of the scores by
// sqrt(H); the extended mask (1 - mask) * min added), timm (Q * scale), masks added or selected with Where.
// A scale is never a mask; only a Div of the scores is reported (TensorRT wants the scale on Q or K).
#include <gtest/gtest.h>

#include "tests/core/lint/lint_test_util.h"

namespace ql {
namespace {

constexpr int64_t kLength = 64, kHead = 32;

enum class ScaleOp { None, Mul, Div, PowMul, ShapeSqrtMul };
enum class ScaleOn { Q, K, QAndK, Scores };
enum class Mask { None, Add, HfExtendedAdd, Where };

struct Form {
    ScaleOp op;
    ScaleOn on;
    Mask mask;
};

std::string name(const Form& f) {
    static const char* ops[] = {"none", "mul", "div", "powmul", "shapesqrtmul"};
    static const char* ons[] = {"q", "k", "qandk", "scores"};
    static const char* masks[] = {"nomask", "add", "hfadd", "where"};
    return std::string(ops[static_cast<int>(f.op)]) + "_" + ons[static_cast<int>(f.on)] + "_" +
           masks[static_cast<int>(f.mask)];
}

void PrintTo(const Form& f, std::ostream* os) {
    *os << name(f);
}

// The scale factor as the form computes it: an initializer, Pow(H, -0.5), or sqrt(1 / sqrt(H)) from Shape(q).
std::string scaleValue(test::ModelBuilder& b, ScaleOp op, const std::string& tag) {
    const std::string s = "scale_" + tag;
    switch (op) {
        case ScaleOp::PowMul:
            b.initializer(s + "_h", {}, {static_cast<float>(kHead)});
            b.initializer(s + "_e", {}, {-0.5f});
            b.node("Pow", {s + "_h", s + "_e"}, {s}, s + "_pow");
            return s;
        case ScaleOp::ShapeSqrtMul:
            b.node("Shape", {"q"}, {s + "_shape"}, s + "_shape_node");
            b.initializer(s + "_last", DataType::Int64, {}, {-1});
            b.node("Gather", {s + "_shape", s + "_last"}, {s + "_h64"}, s + "_gather").i("axis", 0);
            b.node("Cast", {s + "_h64"}, {s + "_h"}, s + "_cast").i("to", 1);
            b.node("Sqrt", {s + "_h"}, {s + "_sqrt"}, s + "_sqrt_node");
            b.initializer(s + "_one", {}, {1.0f});
            b.node("Div", {s + "_one", s + "_sqrt"}, {s + "_inv"}, s + "_div");
            b.node("Sqrt", {s + "_inv"}, {s}, s + "_root");
            return s;
        case ScaleOp::Div:
            b.initializer(s, {}, {5.66f});
            return s;
        default:
            b.initializer(s, {}, {0.177f});
            return s;
    }
}

std::string scaled(test::ModelBuilder& b, const std::string& x, ScaleOp op, const std::string& tag) {
    const std::string s = scaleValue(b, op, tag);
    b.node(op == ScaleOp::Div ? "Div" : "Mul", {x, s}, {x + "_scaled"}, "scale_" + tag + "_op");
    return x + "_scaled";
}

std::unique_ptr<Model> attention(const Form& f) {
    test::ModelBuilder b(17);
    b.input("q", DataType::Float, {1, 2, kLength, kHead});
    b.input("kT", DataType::Float, {1, 2, kHead, kLength});
    b.input("v", DataType::Float, {1, 2, kLength, kHead});
    std::string q = "q", k = "kT";
    if (f.op != ScaleOp::None && (f.on == ScaleOn::Q || f.on == ScaleOn::QAndK)) q = scaled(b, q, f.op, "q");
    if (f.op != ScaleOp::None && (f.on == ScaleOn::K || f.on == ScaleOn::QAndK)) k = scaled(b, k, f.op, "k");
    b.node("MatMul", {q, k}, {"scores"}, "qk");
    std::string scores = "scores";
    if (f.op != ScaleOp::None && f.on == ScaleOn::Scores) scores = scaled(b, scores, f.op, "scores");
    switch (f.mask) {
        case Mask::None:
            break;
        case Mask::Add:
            b.input("mask", DataType::Float, {1, 1, 1, kLength});
            b.node("Add", {scores, "mask"}, {"masked"}, "add_mask");
            scores = "masked";
            break;
        case Mask::HfExtendedAdd:  // (1 - mask) * finfo.min, then added
            b.input("mask", DataType::Float, {1, 1, 1, kLength});
            b.initializer("one", {}, {1.0f});
            b.initializer("lowest", {}, {-3.4e38f});
            b.node("Sub", {"one", "mask"}, {"inverted"}, "invert_mask");
            b.node("Mul", {"inverted", "lowest"}, {"extended"}, "extend_mask");
            b.node("Add", {scores, "extended"}, {"masked"}, "add_mask");
            scores = "masked";
            break;
        case Mask::Where:
            b.input("keep", DataType::Bool, {1, 1, 1, kLength});
            b.initializer("minus_inf", {}, {-3.4e38f});
            b.node("Where", {"keep", scores, "minus_inf"}, {"masked"}, "where_mask");
            scores = "masked";
            break;
    }
    b.node("Softmax", {scores}, {"probs"}, "softmax").i("axis", -1);
    b.node("MatMul", {"probs", "v"}, {"context"}, "pv");
    b.output("context");
    return b.load();
}

std::vector<Form> allForms() {
    std::vector<Form> forms;
    for (ScaleOp op : {ScaleOp::None, ScaleOp::Mul, ScaleOp::Div, ScaleOp::PowMul, ScaleOp::ShapeSqrtMul})
        for (ScaleOn on : {ScaleOn::Q, ScaleOn::K, ScaleOn::QAndK, ScaleOn::Scores}) {
            if (op == ScaleOp::None && on != ScaleOn::Q) continue;
            for (Mask mask : {Mask::None, Mask::Add, Mask::HfExtendedAdd, Mask::Where}) forms.push_back({op, on, mask});
        }
    return forms;
}

class MhaFormsTest : public ::testing::TestWithParam<Form> {};

TEST_P(MhaFormsTest, OnlyADivOfTheScoresIsReported) {
    const Form f = GetParam();
    const auto findings = test::findingsOf(*attention(f), "trt-mha-fusion");
    for (const Finding& finding : findings)
        EXPECT_EQ(finding.message.find("mask is multiplied"), std::string::npos) << finding.message;
    if (f.op == ScaleOp::Div && f.on == ScaleOn::Scores) {
        ASSERT_EQ(findings.size(), 1u);
        EXPECT_NE(findings[0].message.find("scaled by a Div ('scale_scores_op')"), std::string::npos)
            << findings[0].message;
    } else {
        EXPECT_TRUE(findings.empty()) << findings.front().message;
    }
}

INSTANTIATE_TEST_SUITE_P(ExporterForms, MhaFormsTest, ::testing::ValuesIn(allForms()),
                         [](const ::testing::TestParamInfo<Form>& info) { return name(info.param); });

}  // namespace
}  // namespace ql
