#include "core/exec/kernels/non_max_suppression.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace ql {

namespace {

struct Box {
    float yMin, xMin, yMax, xMax;
    float area() const { return (xMax - xMin) * (yMax - yMin); }
};

Box boxAt(const float* b, bool centerPoint) {
    if (centerPoint) {
        const float halfW = b[2] / 2.0f, halfH = b[3] / 2.0f;
        return {b[1] - halfH, b[0] - halfW, b[1] + halfH, b[0] + halfW};
    }
    return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

// ONNX Runtime's SuppressByIOU: degenerate boxes and empty intersections never suppress.
bool suppresses(const Box& a, const Box& b, float iouThreshold) {
    const float ixMin = std::max(a.xMin, b.xMin), iyMin = std::max(a.yMin, b.yMin);
    const float ixMax = std::min(a.xMax, b.xMax), iyMax = std::min(a.yMax, b.yMax);
    const float intersection = std::max(0.0f, ixMax - ixMin) * std::max(0.0f, iyMax - iyMin);
    if (intersection <= 0.0f) return false;
    const float areaA = a.area(), areaB = b.area(), united = areaA + areaB - intersection;
    if (areaA <= 0.0f || areaB <= 0.0f || united <= 0.0f) return false;
    return intersection / united > iouThreshold;
}

float optionalScalar(const KernelContext& ctx, size_t input, float fallback) {
    return ctx.hasInput(input) && ctx.input(input).elementCount() > 0 ? ctx.input(input).toFloats()[0] : fallback;
}

}  // namespace

Status NonMaxSuppressionKernel::init(const KernelInit& info) {
    const int64_t centerPoint = info.node.intAttribute("center_point_box", 0);
    if (centerPoint != 0 && centerPoint != 1) return info.fail("center_point_box must be 0 or 1");
    mCenterPoint = centerPoint == 1;
    return Status::ok();
}

Status NonMaxSuppressionKernel::compute(KernelContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1)) return ctx.fail("needs inputs boxes and scores");
    const Tensor &boxes = ctx.input(0), &scores = ctx.input(1);
    if (boxes.rank() != 3 || boxes.dim(2) != 4 || scores.rank() != 3 || scores.dim(0) != boxes.dim(0) ||
        scores.dim(2) != boxes.dim(1))
        return ctx.fail("boxes must be [batches, boxes, 4] and scores [batches, classes, boxes], not " +
                        shapeString(boxes.shape()) + " and " + shapeString(scores.shape()));
    const auto maxOutput = static_cast<int64_t>(optionalScalar(ctx, 2, 0.0f));
    const float iouThreshold = optionalScalar(ctx, 3, 0.0f);
    const bool hasScoreThreshold = ctx.hasInput(4) && ctx.input(4).elementCount() > 0;
    const float scoreThreshold = optionalScalar(ctx, 4, 0.0f);
    const std::vector<float> boxValues = boxes.toFloats(), scoreValues = scores.toFloats();
    const int64_t batches = boxes.dim(0), count = boxes.dim(1), classes = scores.dim(1);
    std::vector<int64_t> selected;
    for (int64_t b = 0; b < batches && maxOutput > 0; ++b)
        for (int64_t c = 0; c < classes; ++c) {
            const float* classScores = scoreValues.data() + (b * classes + c) * count;
            std::vector<int64_t> candidates;
            for (int64_t i = 0; i < count; ++i)
                if (!hasScoreThreshold || classScores[i] > scoreThreshold) candidates.push_back(i);
            std::stable_sort(candidates.begin(), candidates.end(),
                             [&](int64_t x, int64_t y) { return classScores[x] > classScores[y]; });
            std::vector<Box> kept;
            for (int64_t i : candidates) {
                if (static_cast<int64_t>(kept.size()) >= maxOutput) break;
                const Box box = boxAt(boxValues.data() + (b * count + i) * 4, mCenterPoint);
                if (std::any_of(kept.begin(), kept.end(),
                                [&](const Box& k) { return suppresses(k, box, iouThreshold); }))
                    continue;
                kept.push_back(box);
                selected.insert(selected.end(), {b, c, i});
            }
        }
    ctx.setOutput(0, Tensor::fromVector(DataType::Int64, {static_cast<int64_t>(selected.size() / 3), 3}, selected));
    return Status::ok();
}

}  // namespace ql
