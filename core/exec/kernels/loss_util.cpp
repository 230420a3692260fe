#include "core/exec/kernels/loss_util.h"

#include "core/exec/kernels/copy_util.h"
#include "core/exec/kernels/elementwise_util.h"

namespace ql {

Result<LossAttributes> readLossAttributes(const KernelInit& info) {
    LossAttributes attrs;
    const std::string reduction = info.node.stringAttribute("reduction", "mean");
    if (reduction == "none")
        attrs.reduction = LossAttributes::Reduction::None;
    else if (reduction == "sum")
        attrs.reduction = LossAttributes::Reduction::Sum;
    else if (reduction != "mean")
        return info.fail("reduction must be none, sum or mean, not '" + reduction + "'");
    if (info.node.attribute("ignore_index")) attrs.ignoreIndex = info.node.intAttribute("ignore_index", 0);
    return attrs;
}

Tensor floatingTensor(DataType dtype, Shape shape, const std::vector<double>& values) {
    if (dtype == DataType::Double) return Tensor::fromVector(dtype, std::move(shape), values);
    const Tensor f =
        Tensor::fromVector(DataType::Float, std::move(shape), std::vector<float>(values.begin(), values.end()));
    return isHalfType(dtype) ? fromFloatTensor(f, dtype) : f;
}

Result<Tensor> negativeLogLikelihood(const KernelContext& ctx, const LossAttributes& attrs,
                                     const std::vector<double>& logProb, const Shape& shape, DataType dtype) {
    if (shape.size() < 2) return ctx.fail("the input must be [N, C, d...], not " + shapeString(shape));
    if (!ctx.hasInput(1)) return ctx.fail("needs the target input");
    QL_ASSIGN_OR_RETURN(const std::vector<int64_t> target, readInt64Input(ctx, 1));
    const int64_t n = shape[0], classes = shape[1],
                  inner = shapeElementCount(shape) / std::max<int64_t>(1, n * classes);
    Shape targetShape{n};
    targetShape.insert(targetShape.end(), shape.begin() + 2, shape.end());
    if (ctx.input(1).shape() != targetShape)
        return ctx.fail("the target has shape " + shapeString(ctx.input(1).shape()) + "; it must be " +
                        shapeString(targetShape));
    std::vector<double> weight;
    if (ctx.hasInput(2)) {
        for (float w : ctx.input(2).toFloats()) weight.push_back(w);
        if (static_cast<int64_t>(weight.size()) != classes)
            return ctx.fail("the weight has " + std::to_string(weight.size()) + " values for " +
                            std::to_string(classes) + " classes");
    }
    std::vector<double> loss(target.size(), 0.0);
    double weightSum = 0.0;
    for (size_t i = 0; i < target.size(); ++i) {
        const int64_t t = target[i];
        if (attrs.ignoreIndex && t == *attrs.ignoreIndex) continue;
        if (t < 0 || t >= classes)
            return ctx.fail("target " + std::to_string(t) + " is not a class index in [0, " + std::to_string(classes) +
                            ") nor ignore_index");
        const int64_t sample = static_cast<int64_t>(i) / inner, position = static_cast<int64_t>(i) % inner;
        const double w = weight.empty() ? 1.0 : weight[static_cast<size_t>(t)];
        loss[i] = -logProb[static_cast<size_t>((sample * classes + t) * inner + position)] * w;
        weightSum += w;
    }
    if (attrs.reduction == LossAttributes::Reduction::None) return floatingTensor(dtype, targetShape, loss);
    double sum = 0.0;
    for (double v : loss) sum += v;
    if (attrs.reduction == LossAttributes::Reduction::Mean)
        sum /= weight.empty() && !attrs.ignoreIndex ? static_cast<double>(loss.size()) : weightSum;
    return floatingTensor(dtype, {}, {sum});
}

}  // namespace ql
