#include "core/exec/kernels/recurrent_util.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/elementwise_util.h"

namespace ql {

namespace {

using Kind = RecurrentActivation::Kind;

struct ActivationName {
    std::string_view name;  // lower case
    Kind kind;
    int parameters;  // 0, 1 (alpha) or 2 (alpha, beta)
    float alpha, beta;
};
constexpr ActivationName kActivations[] = {
    {"relu", Kind::Relu, 0, 0, 0},
    {"tanh", Kind::Tanh, 0, 0, 0},
    {"sigmoid", Kind::Sigmoid, 0, 0, 0},
    {"affine", Kind::Affine, 2, 1.0f, 0.0f},
    {"leakyrelu", Kind::LeakyRelu, 1, 0.01f, 0},
    {"thresholdedrelu", Kind::ThresholdedRelu, 1, 1.0f, 0},
    {"scaledtanh", Kind::ScaledTanh, 2, 1.0f, 1.0f},
    {"hardsigmoid", Kind::HardSigmoid, 2, 0.2f, 0.5f},
    {"elu", Kind::Elu, 1, 1.0f, 0},
    {"softsign", Kind::Softsign, 0, 0, 0},
    {"softplus", Kind::Softplus, 0, 0, 0},
};

std::string lowerCase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// The activations attribute (or the defaults for every direction), alpha/beta taken in order by the functions
// that use them (as ONNX Runtime reads them).
Result<std::vector<RecurrentActivation>> readActivations(const KernelInit& info, std::span<const char* const> defaults,
                                                         int64_t directions) {
    std::vector<std::string> names;
    if (const auto* attr = info.node.attribute("activations"))
        names.assign(attr->strings().begin(), attr->strings().end());
    if (names.empty())
        for (int64_t d = 0; d < directions; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
    if (names.size() != defaults.size() * static_cast<size_t>(directions))
        return info.fail("'activations' lists " + std::to_string(names.size()) + " functions; this op takes " +
                         std::to_string(defaults.size()) + " per direction");
    std::vector<float> alpha, beta;
    if (const auto* a = info.node.attribute("activation_alpha")) alpha.assign(a->floats().begin(), a->floats().end());
    if (const auto* b = info.node.attribute("activation_beta")) beta.assign(b->floats().begin(), b->floats().end());
    size_t nextAlpha = 0, nextBeta = 0;
    std::vector<RecurrentActivation> result;
    for (const std::string& name : names) {
        const std::string lower = lowerCase(name);
        const auto* found = std::find_if(std::begin(kActivations), std::end(kActivations),
                                         [&](const ActivationName& a) { return a.name == lower; });
        if (found == std::end(kActivations)) return info.fail("activation '" + name + "' is not one ONNX defines");
        RecurrentActivation activation{found->kind, found->alpha, found->beta};
        if (found->parameters >= 1 && nextAlpha < alpha.size()) activation.alpha = alpha[nextAlpha++];
        if (found->parameters >= 2 && nextBeta < beta.size()) activation.beta = beta[nextBeta++];
        result.push_back(activation);
    }
    return result;
}

// `t` with its axes permuted (output axis i is input axis perm[i]).
Tensor permuted(const Tensor& t, std::span<const int64_t> perm) {
    Shape shape(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) shape[i] = t.dim(static_cast<size_t>(perm[i]));
    Tensor out(t.dtype(), shape);
    permuteCopy(bytesOf(t), t.shape(), perm, bytesOf(out), dataTypeSize(t.dtype()));
    return out;
}

constexpr int64_t kSwapFirstTwo[] = {1, 0, 2};

Status expectShape(const KernelContext& ctx, const Tensor& t, const Shape& shape, const std::string& name) {
    if (t.shape() == shape) return Status::ok();
    return ctx.fail(name + " has shape " + shapeString(t.shape()) + "; it must be " + shapeString(shape));
}

}  // namespace

void RecurrentActivation::apply(float* x, int64_t n) const {
    Eigen::Map<Eigen::ArrayXf> v(x, n);
    switch (kind) {
        case Kind::Relu:
            v = v.max(0.0f);
            break;
        case Kind::Tanh:
            v = v.tanh();
            break;
        case Kind::Sigmoid:
            v = 1.0f / (1.0f + (-v).exp());
            break;
        case Kind::Affine:
            v = alpha * v + beta;
            break;
        case Kind::LeakyRelu:
            v = (v >= 0.0f).select(v, alpha * v);
            break;
        case Kind::ThresholdedRelu:
            v = (v > alpha).select(v, 0.0f);
            break;
        case Kind::ScaledTanh:
            v = alpha * (beta * v).tanh();
            break;
        case Kind::HardSigmoid:
            v = (alpha * v + beta).max(0.0f).min(1.0f);
            break;
        case Kind::Elu:
            v = (v >= 0.0f).select(v, alpha * (v.exp() - 1.0f));
            break;
        case Kind::Softsign:
            v = v / (1.0f + v.abs());
            break;
        case Kind::Softplus:
            v = (v > 20.0f).select(v, (1.0f + v.exp()).log());
            break;
    }
}

Result<RecurrentAttributes> readRecurrentAttributes(const KernelInit& info, std::span<const char* const> defaults) {
    RecurrentAttributes attrs;
    const Node& node = info.node;
    attrs.hiddenSize = node.intAttribute("hidden_size", 0);
    const std::string direction = node.stringAttribute("direction", "forward");
    if (direction == "forward")
        attrs.direction = RecurrentAttributes::Direction::Forward;
    else if (direction == "reverse")
        attrs.direction = RecurrentAttributes::Direction::Reverse;
    else if (direction == "bidirectional")
        attrs.direction = RecurrentAttributes::Direction::Bidirectional;
    else
        return info.fail("direction '" + direction + "' is not forward, reverse or bidirectional");
    attrs.layout = node.intAttribute("layout", 0);
    if (attrs.layout != 0 && attrs.layout != 1) return info.fail("layout must be 0 or 1");
    attrs.clip = node.attribute("clip") ? node.floatAttribute("clip", 0.0f) : 0.0f;
    if (attrs.clip < 0.0f) return info.fail("clip must be positive");
    attrs.perDirection = defaults.size();
    QL_ASSIGN_OR_RETURN(attrs.activations, readActivations(info, defaults, attrs.directions()));
    return attrs;
}

Result<RecurrentInputs> readRecurrentInputs(const KernelContext& ctx, const RecurrentAttributes& attrs, int64_t gates) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || !ctx.hasInput(2)) return ctx.fail("needs the inputs X, W and R");
    const DataType dtype = ctx.input(0).dtype();
    if (dtype != DataType::Float && !isHalfType(dtype)) return unsupportedType(ctx, dtype);
    RecurrentInputs in;
    in.x = promoteHalf(ctx.input(0));
    if (in.x.rank() != 3) return ctx.fail("X must have rank 3, not " + shapeString(in.x.shape()));
    if (attrs.layout == 1) in.x = permuted(in.x, kSwapFirstTwo);
    in.seq = in.x.dim(0), in.batch = in.x.dim(1), in.inputSize = in.x.dim(2);
    in.directions = attrs.directions(), in.gates = gates;
    in.w = promoteHalf(ctx.input(1));
    in.r = promoteHalf(ctx.input(2));
    in.hidden = in.r.rank() == 3 ? in.r.dim(2) : 0;
    if (attrs.hiddenSize > 0 && attrs.hiddenSize != in.hidden)
        return ctx.fail("hidden_size is " + std::to_string(attrs.hiddenSize) + " but R gives " +
                        std::to_string(in.hidden));
    const int64_t rows = gates * in.hidden;
    QL_RETURN_IF_ERROR(expectShape(ctx, in.w, {in.directions, rows, in.inputSize}, "W"));
    QL_RETURN_IF_ERROR(expectShape(ctx, in.r, {in.directions, rows, in.hidden}, "R"));
    in.bias = ctx.hasInput(3) ? promoteHalf(ctx.input(3)) : Tensor::zeros(DataType::Float, {in.directions, 2 * rows});
    QL_RETURN_IF_ERROR(expectShape(ctx, in.bias, {in.directions, 2 * rows}, "B"));
    in.lengths.assign(static_cast<size_t>(in.batch), in.seq);
    if (ctx.hasInput(4)) {
        QL_ASSIGN_OR_RETURN(in.lengths, readInt64Input(ctx, 4));
        if (in.lengths.size() != static_cast<size_t>(in.batch))
            return ctx.fail("sequence_lens needs one length per batch entry (" + std::to_string(in.batch) + ")");
        for (int64_t length : in.lengths)
            if (length < 0 || length > in.seq)
                return ctx.fail("a sequence length (" + std::to_string(length) + ") is outside [0, " +
                                std::to_string(in.seq) + "]");
    }
    return in;
}

Result<Tensor> readRecurrentState(const KernelContext& ctx, const RecurrentAttributes& attrs, const RecurrentInputs& in,
                                  size_t input, const std::string& name) {
    if (!ctx.hasInput(input)) return Tensor::zeros(DataType::Float, {in.directions, in.batch, in.hidden});
    Tensor state = promoteHalf(ctx.input(input));
    if (attrs.layout == 1) {
        QL_RETURN_IF_ERROR(expectShape(ctx, state, {in.batch, in.directions, in.hidden}, name));
        return permuted(state, kSwapFirstTwo);
    }
    QL_RETURN_IF_ERROR(expectShape(ctx, state, {in.directions, in.batch, in.hidden}, name));
    return state.clone();  // updated in place
}

RowMatrix inputProjection(const RecurrentInputs& in, int64_t d, int64_t recurrentBiasGates) {
    const int64_t rows = in.gates * in.hidden;
    Eigen::Map<const RowMatrix> x(in.x.data<float>(), in.seq * in.batch, in.inputSize);
    Eigen::Map<const RowMatrix> w(in.weights(d), rows, in.inputSize);
    RowMatrix projection = x * w.transpose();
    projection.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(in.inputBias(d), rows);
    const int64_t folded = recurrentBiasGates * in.hidden;
    projection.leftCols(folded).rowwise() += Eigen::Map<const Eigen::RowVectorXf>(in.recurrentBias(d), folded);
    return projection;
}

void activateClipped(const RecurrentActivation& f, float* x, int64_t n, float clip) {
    if (clip > 0.0f) {
        Eigen::Map<Eigen::ArrayXf> v(x, n);
        v = v.max(-clip).min(clip);
    }
    f.apply(x, n);
}

RecurrentOutputs::RecurrentOutputs(const RecurrentInputs& in, std::vector<Tensor> initialStates)
    : y(Tensor::zeros(DataType::Float, {in.seq, in.directions, in.batch, in.hidden})),
      states(std::move(initialStates)) {}

void commitStep(RecurrentOutputs& out, const RecurrentInputs& in, int64_t t, int64_t d,
                std::span<const RowMatrix* const> next) {
    for (int64_t b = 0; b < in.batch; ++b) {
        if (t >= in.lengths[static_cast<size_t>(b)]) continue;
        for (size_t s = 0; s < next.size(); ++s) out.state(s, d, in).row(b) = next[s]->row(b);
        Eigen::Map<Eigen::RowVectorXf>(out.yAt(t, d, b, in), in.hidden) = next[0]->row(b);
    }
}

void writeRecurrentOutputs(KernelContext& ctx, const RecurrentAttributes& attrs, RecurrentOutputs out) {
    const DataType dtype = ctx.input(0).dtype();
    constexpr int64_t kBatchFirst[] = {2, 0, 1, 3};
    if (ctx.outputCount() > 0)
        setOutputAs(ctx, 0, attrs.layout == 1 ? permuted(out.y, kBatchFirst) : std::move(out.y), dtype);
    for (size_t s = 0; s < out.states.size() && s + 1 < ctx.outputCount(); ++s)
        setOutputAs(ctx, s + 1, attrs.layout == 1 ? permuted(out.states[s], kSwapFirstTwo) : std::move(out.states[s]),
                    dtype);
}

}  // namespace ql
