#include "ui/graph/node_style.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

namespace ql::ui {

namespace {

const std::unordered_map<std::string_view, OpFamily>& familyTable() {
    using enum OpFamily;
    static const std::unordered_map<std::string_view, OpFamily> table = [] {
        std::unordered_map<std::string_view, OpFamily> t;
        auto add = [&](OpFamily family, std::initializer_list<std::string_view> ops) {
            for (auto op : ops) t.emplace(op, family);
        };
        add(ConvLinear, {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "Gemm", "MatMul", "MatMulInteger",
                         "QLinearMatMul", "Einsum", "DeformConv"});
        add(Activation,
            {"Relu", "LeakyRelu", "PRelu", "Sigmoid", "Tanh", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish",
             "Softplus", "Softsign", "Gelu", "Mish", "ThresholdedRelu", "Softmax", "LogSoftmax", "Hardmax", "Clip"});
        add(Normalization, {"BatchNormalization", "InstanceNormalization", "LayerNormalization", "GroupNormalization",
                            "LpNormalization", "LRN", "MeanVarianceNormalization"});
        add(Pooling, {"MaxPool",      "AveragePool",  "GlobalAveragePool", "GlobalMaxPool",   "LpPool",
                      "GlobalLpPool", "MaxRoiPool",   "RoiAlign",          "MaxUnpool",       "ReduceMean",
                      "ReduceMax",    "ReduceMin",    "ReduceSum",         "ReduceProd",      "ReduceL1",
                      "ReduceL2",     "ReduceLogSum", "ReduceLogSumExp",   "ReduceSumSquare", "ArgMax",
                      "ArgMin"});
        add(DataMovement, {"Reshape",  "Flatten",  "Squeeze",         "Unsqueeze",    "Transpose",
                           "Concat",   "Split",    "Slice",           "Gather",       "GatherElements",
                           "GatherND", "Scatter",  "ScatterElements", "ScatterND",    "Expand",
                           "Tile",     "Pad",      "Shape",           "Size",         "Identity",
                           "Resize",   "Upsample", "DepthToSpace",    "SpaceToDepth", "Cast",
                           "CastLike", "Constant", "ConstantOfShape", "Range",        "NonZero",
                           "OneHot",   "Compress", "ReverseSequence", "Trilu",        "TopK",
                           "Dropout"});
        add(Elementwise, {"Add",      "Sub",         "Mul",   "Div",        "Pow",   "Sqrt",    "Exp",
                          "Log",      "Abs",         "Neg",   "Reciprocal", "Floor", "Ceil",    "Round",
                          "Min",      "Max",         "Sum",   "Mean",       "Equal", "Greater", "GreaterOrEqual",
                          "Less",     "LessOrEqual", "And",   "Or",         "Not",   "Xor",     "Erf",
                          "Sin",      "Cos",         "Tan",   "Asin",       "Acos",  "Atan",    "Sinh",
                          "Cosh",     "Asinh",       "Acosh", "Atanh",      "Where", "Sign",    "Mod",
                          "BitShift", "IsNaN",       "IsInf", "CumSum"});
        add(Quantization, {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"});
        add(ControlFlow, {"If", "Loop", "Scan"});
        return t;
    }();
    return table;
}

}  // namespace

OpFamily opFamily(const std::string& opType) {
    auto it = familyTable().find(opType);
    return it == familyTable().end() ? OpFamily::Other : it->second;
}

QString opFamilyName(OpFamily family) {
    static const std::array<const char*, kOpFamilyCount> names = {"Conv / linear",
                                                                  "Activation",
                                                                  "Normalization",
                                                                  "Pooling / reduce",
                                                                  "Shape / data movement",
                                                                  "Elementwise math",
                                                                  "Quantization",
                                                                  "Control flow",
                                                                  "Other"};
    return QString::fromLatin1(names[static_cast<size_t>(family)]);
}

QColor opFamilyColor(OpFamily family) {
    static const std::array<QRgb, kOpFamilyCount> colors = {0x33659e, 0x9c3d34, 0x3a7d52, 0x237a7a, 0x6e5f4b,
                                                            0x62539c, 0x9a6c12, 0x98366f, 0x56616b};
    return QColor(colors[static_cast<size_t>(family)]);
}

QColor fillColor(const VisibleNode& node) {
    switch (node.kind) {
        case VisibleKind::Operator:
            return opFamilyColor(opFamily(node.title));
        case VisibleKind::Block:
            return QColor(0x3e4854);
        case VisibleKind::GraphInput:
        case VisibleKind::GraphOutput:
            return QColor(0x4a4a4a);
    }
    return QColor(0x56616b);
}

QColor precisionColor(Precision precision) {
    switch (precision) {
        case Precision::Fp32:
            return QColor(0x4fc3f7);
        case Precision::Fp16:
            return QColor(0xffa726);
        case Precision::Int8:
            return QColor(0x66dd44);
    }
    return Qt::gray;
}

QString precisionLabel(Precision precision) {
    return QString::fromLatin1(precisionName(precision)).toUpper();
}

QColor severityColor(Severity severity) {
    switch (severity) {
        case Severity::Error:
            return QColor(0xe53935);
        case Severity::Warning:
            return QColor(0xfb8c00);
        case Severity::Info:
            return QColor(0x1e88e5);
    }
    return Qt::gray;
}

QColor quantBadgeColor() {
    return QColor(0xffd54f);
}

QColor selectionColor() {
    return QColor(0xffeb3b);
}

QColor edgeColor() {
    return QColor(0x8a9199);
}

QColor mismatchColor() {
    return QColor(0xff1744);
}

NodeMetrics::NodeMetrics() {
    mTitleFont.setBold(true);
    mSubtitleFont.setPointSizeF(std::max(6.0, mSubtitleFont.pointSizeF() * 0.85));
    mTitleHeight = QFontMetricsF(mTitleFont).height();
    mSubtitleHeight = QFontMetricsF(mSubtitleFont).height();
}

void NodeMetrics::size(VisibleNode& node) const {
    const double title =
        std::min(QFontMetricsF(mTitleFont).horizontalAdvance(QString::fromStdString(node.title)), maxTextWidth());
    const double subtitle =
        std::min(QFontMetricsF(mSubtitleFont).horizontalAdvance(QString::fromStdString(node.subtitle)), maxTextWidth());
    node.width = std::ceil(std::max({title, subtitle, 60.0}) + 2 * padding());
    node.height = std::ceil(mTitleHeight + (node.subtitle.empty() ? 0 : mSubtitleHeight) + 1.25 * padding());
}

QString NodeMetrics::elidedSubtitle(const VisibleNode& node, double width) const {
    return QFontMetricsF(mSubtitleFont)
        .elidedText(QString::fromStdString(node.subtitle), Qt::ElideLeft, width - 2 * padding());
}

}  // namespace ql::ui
