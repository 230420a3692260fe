#pragma once
#include "core/exec/kernel.h"

namespace ql {

// NonMaxSuppression (opsets 10, 11): per batch and class, boxes whose score exceeds score_threshold, greedily by
// descending score (ties: lower box index first), dropping those whose IoU with a kept box exceeds iou_threshold,
// at most max_output_boxes_per_class (0 or absent: none). Boxes as corners [y1, x1, y2, x2] in either order
// (center_point_box 0) or [x_center, y_center, width, height] (1). Output [selected, 3] INT64 rows (batch, class,
// box), as ONNX Runtime orders and computes them.
class NonMaxSuppressionKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mCenterPoint = false;
};

}  // namespace ql
