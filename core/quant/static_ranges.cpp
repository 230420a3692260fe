#include "core/quant/static_ranges.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string_view>

#include "core/model/constant_values.h"
#include "core/model/op_roles.h"

namespace ql {

namespace {

constexpr double kInf = StaticRange::kInf;

bool isOneOf(const Node& node, std::initializer_list<std::string_view> ops) {
    return isDefaultDomain(node) && std::find(ops.begin(), ops.end(), node.opType) != ops.end();
}

// The values a small integer type can hold (bool: 0 and 1); unbounded for the other types.
StaticRange typeRange(DataType type) {
    switch (type) {
        case DataType::Bool:
            return {0.0, 1.0};
        case DataType::UInt8:
            return {0.0, 255.0};
        case DataType::Int8:
            return {-128.0, 127.0};
        case DataType::UInt16:
            return {0.0, 65535.0};
        case DataType::Int16:
            return {-32768.0, 32767.0};
        default:
            return {};
    }
}

bool isFloatType(DataType type) {
    return type == DataType::Float || type == DataType::Float16 || type == DataType::Double ||
           type == DataType::BFloat16;
}

// A NaN end (inf - inf, 0 * inf) or an empty interval says nothing: unbounded.
StaticRange sane(StaticRange r) {
    if (std::isnan(r.lo) || std::isnan(r.hi) || r.lo > r.hi) return {};
    return r;
}

// The node both bounds come from: one side's when the other has none (a constant), kNoId when they differ.
NodeId commonBounder(NodeId a, NodeId b) {
    if (a == kNoId) return b;
    if (b == kNoId || a == b) return a;
    return kNoId;
}

StaticRange intersect(const StaticRange& a, const StaticRange& b) {
    const StaticRange r{std::max(a.lo, b.lo), std::min(a.hi, b.hi), a.bounded() ? a.bounder : b.bounder};
    return r.lo > r.hi ? a : r;
}

StaticRange unite(const StaticRange& a, const StaticRange& b) {
    return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), commonBounder(a.bounder, b.bounder)};
}

// A non-decreasing function applied to both ends (at an infinite end, its limit there).
template <typename Function>
StaticRange increasing(const StaticRange& r, Function f, NodeId bounder) {
    return sane({f(r.lo), f(r.hi), bounder});
}

// 0 times an infinite end is 0 here: the end of a product of intervals, not IEEE's NaN.
double times(double a, double b) {
    return a == 0.0 || b == 0.0 ? 0.0 : a * b;
}

StaticRange product(const StaticRange& a, const StaticRange& b) {
    const double ends[] = {times(a.lo, b.lo), times(a.lo, b.hi), times(a.hi, b.lo), times(a.hi, b.hi)};
    return sane({*std::min_element(std::begin(ends), std::end(ends)),
                 *std::max_element(std::begin(ends), std::end(ends)), commonBounder(a.bounder, b.bounder)});
}

StaticRange sum(const StaticRange& a, const StaticRange& b) {
    return sane({a.lo + b.lo, a.hi + b.hi, commonBounder(a.bounder, b.bounder)});
}

StaticRange difference(const StaticRange& a, const StaticRange& b) {
    return sane({a.lo - b.hi, a.hi - b.lo, commonBounder(a.bounder, b.bounder)});
}

// a / b when b keeps away from 0 (its reciprocal is then bounded); unbounded otherwise.
StaticRange quotient(const StaticRange& a, const StaticRange& b) {
    if (!(b.lo > 0.0 || b.hi < 0.0)) return {};
    return product(a, {1.0 / b.hi, 1.0 / b.lo, b.bounder});
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// x * HardSigmoid(x) with alpha 1/6, beta 1/2: 0 up to -3, down to -0.375 at -1.5, then increasing.
double hardSwish(double x) {
    if (x <= -3.0) return 0.0;
    if (x >= 3.0) return x;
    return x * (x / 6.0 + 0.5);
}

StaticRange hardSwishRange(const StaticRange& r, NodeId node) {
    const double lo = r.lo <= -1.5 && r.hi >= -1.5 ? -0.375 : std::min(hardSwish(r.lo), hardSwish(r.hi));
    return sane({lo, std::max(hardSwish(r.lo), hardSwish(r.hi)), node});
}

bool isComparison(const Node& node) {
    return isOneOf(node, {"Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual", "Not", "And", "Or", "Xor",
                          "IsNaN", "IsInf"});
}

}  // namespace

bool StaticRange::bounded() const {
    return std::isfinite(lo) && std::isfinite(hi);
}

StaticRanges::StaticRanges(const Graph& graph)
    : mGraph(graph), mRanges(graph.values().size()), mConstantRead(graph.values().size(), false) {
    for (size_t v = 0; v < mRanges.size(); ++v) {
        mRanges[v] = typeRange(graph.values()[v].type.dtype);
        mRanges[v].constant = isConstant(graph, static_cast<ValueId>(v));
    }
    for (const Node& node : graph.nodes()) {
        compute(node);
        const bool constant = !node.inputs.empty() &&
                              !isOneOf(node, {"RandomNormalLike", "RandomUniformLike", "Bernoulli", "Multinomial"}) &&
                              std::all_of(node.inputs.begin(), node.inputs.end(), [&](ValueId in) {
                                  return in == kNoId || mRanges[static_cast<size_t>(in)].constant;
                              });
        for (ValueId out : node.outputs)
            if (out != kNoId && constant) mRanges[static_cast<size_t>(out)].constant = true;
    }
}

const StaticRange& StaticRanges::of(ValueId value) const {
    static const StaticRange kUnbounded;
    if (value == kNoId || static_cast<size_t>(value) >= mRanges.size()) return kUnbounded;
    const auto v = static_cast<size_t>(value);
    if (!mConstantRead[v] && isConstant(mGraph, value)) {
        mConstantRead[v] = true;
        const Initializer* init = mGraph.initializerOf(value);
        if (init == nullptr || init->elementCount <= kMaxConstantElements) {
            const auto values = constantFloats(mGraph, value);
            if (values && !values->empty() &&
                std::all_of(values->begin(), values->end(), [](float x) { return std::isfinite(x); })) {
                const auto [lo, hi] = std::minmax_element(values->begin(), values->end());
                mRanges[v] = {*lo, *hi, kNoId, true};
            }
        }
    }
    return mRanges[v];
}

std::optional<StaticRange> StaticRanges::bounded(ValueId value) const {
    const StaticRange& r = of(value);
    return r.bounded() ? std::optional<StaticRange>(r) : std::nullopt;
}

std::optional<double> StaticRanges::constantScalar(ValueId value) const {
    if (value == kNoId) return std::nullopt;
    const auto values = constantFloats(mGraph, value);
    if (!values || values->size() != 1) return std::nullopt;
    return values->front();
}

void StaticRanges::compute(const Node& node) {
    if (node.outputs.empty() || !isDefaultDomain(node)) return;
    auto in = [&](size_t i) -> const StaticRange& { return of(i < node.inputs.size() ? node.inputs[i] : kNoId); };
    const std::string& op = node.opType;
    std::optional<StaticRange> out;  // the outputs' bound, when set
    size_t outputCount = node.outputs.size();
    if (op == "Concat" || op == "Where" || op == "Max" || op == "Min" || op == "Sum") {
        const size_t first = op == "Where" ? 1 : 0;
        for (size_t i = first; i < node.inputs.size(); ++i) {
            const StaticRange& r = in(i);
            if (!out) {
                out = r;
            } else if (op == "Max") {
                out = StaticRange{std::max(out->lo, r.lo), std::max(out->hi, r.hi),
                                  commonBounder(out->bounder, r.bounder)};
            } else if (op == "Min") {
                out = StaticRange{std::min(out->lo, r.lo), std::min(out->hi, r.hi),
                                  commonBounder(out->bounder, r.bounder)};
            } else {
                out = op == "Sum" ? sum(*out, r) : unite(*out, r);
            }
        }
    } else if (movesData(node) ||
               isOneOf(node, {"GatherElements", "GatherND", "Dropout", "MaxPool", "GlobalMaxPool", "ReduceMax",
                              "ReduceMin", "ReduceMean", "GlobalAveragePool", "TopK", "Compress"})) {
        // Every value out is a value in (or an average of values in): for Split every output, for MaxPool, TopK
        // and Dropout the first (their second is indices or a mask, bounded by its type at most).
        out = in(0);
        if (op != "Split") outputCount = 1;
    } else if (op == "ScatterElements" || op == "ScatterND") {
        out = unite(in(0), in(2));
    } else if (op == "AveragePool") {
        out = node.intAttribute("count_include_pad", 0) != 0 ? unite(in(0), {0.0, 0.0}) : in(0);
    } else if (op == "Resize" || op == "Upsample") {
        // Nearest and (bi)linear interpolation stay within the input's range; cubic overshoots it.
        const std::string mode = node.stringAttribute("mode", "nearest");
        if (mode == "nearest" || mode == "linear" || mode == "bilinear") {
            out = in(0);
            if (node.stringAttribute("coordinate_transformation_mode") == "tf_crop_and_resize") {
                const double fill = node.floatAttribute("extrapolation_value", 0.0f);
                out = unite(*out, {fill, fill});
            }
        }
    } else if (op == "Pad") {
        const std::string mode = node.stringAttribute("mode", "constant");
        if (mode != "constant") {
            out = in(0);
        } else {
            const std::optional<double> fill = node.inputs.size() > 2 && node.inputs[2] != kNoId
                                                   ? constantScalar(node.inputs[2])
                                                   : std::optional<double>(node.floatAttribute("value", 0.0f));
            if (fill) out = unite(in(0), {*fill, *fill});
        }
    } else if (op == "DequantizeLinear") {
        // A Q -> DQ pair: the bound of the tensor it quantizes (a lone DQ reads a stored weight: left alone).
        const ValueId q = node.inputs.empty() ? kNoId : node.inputs[0];
        const NodeId qNode = q == kNoId ? kNoId : mGraph.value(q).producer;
        if (qNode != kNoId && isOneOf(mGraph.node(qNode), {"QuantizeLinear"}) && !mGraph.node(qNode).inputs.empty())
            out = of(mGraph.node(qNode).inputs[0]);
    } else if (op == "Sigmoid") {
        out = increasing(in(0), sigmoid, node.id);
    } else if (op == "Tanh") {
        out = increasing(
            in(0), [](double x) { return std::tanh(x); }, node.id);
    } else if (op == "Softsign") {
        out = increasing(
            in(0), [](double x) { return std::isinf(x) ? std::copysign(1.0, x) : x / (1.0 + std::fabs(x)); }, node.id);
    } else if (op == "Erf") {
        out = increasing(
            in(0), [](double x) { return std::erf(x); }, node.id);
    } else if (op == "Softmax") {
        out = StaticRange{0.0, 1.0, node.id};
    } else if (op == "LogSoftmax") {
        out = StaticRange{-kInf, 0.0, node.id};
    } else if (op == "HardSigmoid") {
        const double alpha = node.floatAttribute("alpha", 0.2f), beta = node.floatAttribute("beta", 0.5f);
        auto f = [&](double x) { return std::clamp(times(alpha, x) + beta, 0.0, 1.0); };
        const double a = f(in(0).lo), b = f(in(0).hi);
        out = sane({std::min(a, b), std::max(a, b), node.id});
    } else if (op == "HardSwish") {
        out = hardSwishRange(in(0), node.id);
    } else if (op == "Clip") {
        // Bounds from inputs 1 and 2 (opset 11+) or the min/max attributes (before); a missing one clips nothing.
        double lo = -kInf, hi = kInf;
        if (mGraph.opsetVersion() >= 11) {
            if (node.inputs.size() > 1 && node.inputs[1] != kNoId) lo = constantScalar(node.inputs[1]).value_or(-kInf);
            if (node.inputs.size() > 2 && node.inputs[2] != kNoId) hi = constantScalar(node.inputs[2]).value_or(kInf);
        } else {
            if (node.attribute("min") != nullptr) lo = node.floatAttribute("min", 0.0f);
            if (node.attribute("max") != nullptr) hi = node.floatAttribute("max", 0.0f);
        }
        if (lo <= hi)
            out = increasing(
                in(0), [&](double x) { return std::clamp(x, lo, hi); }, node.id);
    } else if (op == "Relu") {
        out = increasing(
            in(0), [](double x) { return std::max(x, 0.0); }, in(0).bounder);
    } else if (op == "LeakyRelu" || op == "Elu") {
        const double alpha = node.floatAttribute("alpha", op == "Elu" ? 1.0f : 0.01f);
        if (alpha >= 0.0) {
            auto negative = [&](double x) { return op == "Elu" ? times(alpha, std::exp(x) - 1.0) : times(alpha, x); };
            out = increasing(
                in(0), [&](double x) { return x >= 0.0 ? x : negative(x); }, in(0).bounder);
        }
    } else if (isOneOf(node, {"Softplus", "Exp", "Floor", "Ceil", "Round"})) {
        auto f = [&](double x) {
            if (op == "Softplus") return x > 30.0 ? x : std::log1p(std::exp(x));
            if (op == "Exp") return std::exp(x);
            if (op == "Floor") return std::floor(x);
            return op == "Ceil" ? std::ceil(x) : std::nearbyint(x);
        };
        out = increasing(in(0), f, in(0).bounder);
    } else if (op == "Neg") {
        out = StaticRange{-in(0).hi, -in(0).lo, in(0).bounder};
    } else if (op == "Abs") {
        const StaticRange& r = in(0);
        out = r.lo >= 0.0   ? r
              : r.hi <= 0.0 ? StaticRange{-r.hi, -r.lo, r.bounder}
                            : StaticRange{0.0, std::max(-r.lo, r.hi), r.bounder};
    } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
        if (node.inputs.size() == 2) {
            const StaticRange &a = in(0), &b = in(1);
            out = op == "Add"   ? sum(a, b)
                  : op == "Sub" ? difference(a, b)
                  : op == "Mul" ? product(a, b)
                                : quotient(a, b);
        }
    } else if (isComparison(node)) {
        out = StaticRange{0.0, 1.0, node.id};
    } else if (op == "Cast") {
        const auto target = dataTypeFromOnnx(static_cast<int32_t>(node.intAttribute("to", 0)));
        const StaticRange& r = in(0);
        const ValueId source = node.inputs.empty() ? kNoId : node.inputs[0];
        const NodeId maker = source == kNoId ? kNoId : mGraph.value(source).producer;
        if (source != kNoId && (mGraph.value(source).type.dtype == DataType::Bool ||
                                (maker != kNoId && isComparison(mGraph.node(maker))))) {
            out = StaticRange{0.0, 1.0, node.id};  // Cast from bool: 0 or 1
        } else if (isFloatType(target)) {
            out = r;
        } else if (target == DataType::Bool) {
            out = StaticRange{0.0, 1.0, node.id};
        } else if (r.bounded()) {
            // Float to integer truncates; beyond the target's range it wraps, and only the type bounds it.
            const StaticRange limits = typeRange(target);
            const StaticRange cast{std::floor(r.lo), std::ceil(r.hi), r.bounder};
            if (cast.lo >= limits.lo && cast.hi <= limits.hi) out = cast;
        }
    }
    if (!out) return;
    for (size_t i = 0; i < outputCount; ++i)
        if (const ValueId v = node.outputs[i]; v != kNoId) {
            mRanges[static_cast<size_t>(v)] = intersect(*out, typeRange(mGraph.value(v).type.dtype));
            mRanges[static_cast<size_t>(v)].constant = false;  // the constructor decides, from all the inputs
        }
}

}  // namespace ql
