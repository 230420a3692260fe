#include "core/lint/rules/weight_axis.h"

namespace ql::rules {

WeightAxis trtWeightAxis(const LintContext& context, const QdqLink& link) {
    WeightAxis out;
    const Node& dq = context.graph().node(link.dequantize);
    out.dims = context.dims(link.source);
    out.explicitAxis = dq.attribute("axis") != nullptr;
    out.scaleCount = static_cast<int64_t>(link.params.scales.size());
    const auto rank = static_cast<int64_t>(out.dims.size());
    int64_t axis = out.explicitAxis ? dq.intAttribute("axis", 0) : 0;
    if (axis < 0) axis += rank;
    out.axis = (axis >= 0 && axis < rank) ? axis : -1;
    return out;
}

}  // namespace ql::rules
