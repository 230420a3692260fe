#include "core/lint/rules/bounded_codes.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/model/constant_values.h"
#include "core/quant/qdq_placement.h"

namespace ql::rules {

namespace {

struct Grid {
    float scale = 0.0f;
    int64_t zeroPoint = 0;
    int64_t qmin = -128, qmax = 127;
};

// A per-tensor INT8 or UINT8 QuantizeLinear's grid; nullopt for per-channel scales, other types (FP8, INT4, INT16:
// another rule's business) and parameters that are not constants.
std::optional<Grid> quantGrid(const Graph& graph, const Node& q) {
    const auto scales = qdqScales(graph, q);
    if (!scales || scales->size() != 1 || !(scales->front() > 0.0f) || !std::isfinite(scales->front()))
        return std::nullopt;
    Grid grid{scales->front()};
    // ONNX: without a zero point the output is UINT8 unless output_dtype (opset 21) says otherwise.
    DataType type = DataType::UInt8;
    if (const int64_t outputType = q.intAttribute("output_dtype", 0); outputType != 0)
        type = dataTypeFromOnnx(static_cast<int32_t>(outputType));
    if (q.inputs.size() > 2 && q.inputs[2] != kNoId) {
        const auto zeroPoints = constantInt64s(graph, q.inputs[2]);
        if (!zeroPoints || zeroPoints->size() != 1) return std::nullopt;
        grid.zeroPoint = zeroPoints->front();
        type = constantDataType(graph, q.inputs[2]);
    }
    if (type == DataType::UInt8) {
        grid.qmin = 0;
        grid.qmax = 255;
    } else if (type != DataType::Int8) {
        return std::nullopt;
    }
    return grid;
}

// ONNX QuantizeLinear: round half to even, add the zero point, saturate.
int64_t codeOf(double x, const Grid& grid) {
    const double code = std::nearbyint(x / grid.scale) + static_cast<double>(grid.zeroPoint);
    return static_cast<int64_t>(std::clamp(code, static_cast<double>(grid.qmin), static_cast<double>(grid.qmax)));
}

// Ops between a Concat and the QuantizeLinear after it that keep every one of its values (the QuantizeLinear
// still quantizes all of each input): a Slice or Gather would select some, so the walk stops there.
bool keepsEveryValue(const Node& node) {
    return isOp(node, "Reshape") || isOp(node, "Transpose") || isOp(node, "Flatten") || isOp(node, "Squeeze") ||
           isOp(node, "Unsqueeze") || isOp(node, "Identity") || isOp(node, "DepthToSpace") ||
           isOp(node, "SpaceToDepth");
}

class Collector {
public:
    Collector(const LintContext& context, const StaticRanges& ranges) : mContext(context), mRanges(ranges) {}

    // `value` quantized under `grid`: the value itself, or, when it is a Concat's output (maybe reshaped), each of
    // the Concat's inputs: TensorRT moves the QuantizeLinear after a Concat onto its inputs.
    void quantized(ValueId value, const Grid& grid, const Node* quantize) {
        std::unordered_set<NodeId> expanded;
        walk(value, grid, quantize, nullptr, expanded, 0);
    }

    void consider(ValueId value, const Grid& grid, const Node* quantize, const Node* concat, float concatAmax) {
        const auto range = mRanges.bounded(value);
        // A single value loses nothing to a coarse grid; a constant (a weight, a ViT's class token concatenated with
        // the patches) is no activation whose information is lost: its small values share the step as the
        // activations' own small values do.
        if (!range || range->constant || !(range->hi > range->lo)) return;
        const int64_t low = codeOf(range->lo, grid), high = codeOf(range->hi, grid);
        const int64_t codes = high - low + 1;
        if (codes >= kFewCodes) return;
        auto [it, inserted] = mIndex.emplace(value, mCrushed.size());
        if (!inserted && mCrushed[it->second].codes <= codes) return;
        const CrushedTensor crushed{value,    *range, grid.scale, grid.zeroPoint, codes, low, grid.qmax - grid.qmin + 1,
                                    quantize, concat, concatAmax};
        if (inserted)
            mCrushed.push_back(crushed);
        else
            mCrushed[it->second] = crushed;
    }

    std::vector<CrushedTensor> take() { return std::move(mCrushed); }

private:
    void walk(ValueId value, const Grid& grid, const Node* quantize, const Node* concat,
              std::unordered_set<NodeId>& expanded, int depth) {
        if (value == kNoId || depth > 8) return;
        ValueId walked = value;
        for (int step = 0; step < 8; ++step) {
            const Node* p = mContext.producer(walked);
            if (p == nullptr || p->inputs.empty()) break;
            if (isOp(*p, "Concat")) {
                // Each Concat once: an FPN may feed one Concat's output to several others.
                if (expanded.insert(p->id).second)
                    for (ValueId in : p->inputs) walk(mContext.throughQdq(in), grid, quantize, p, expanded, depth + 1);
                return;
            }
            if (!keepsEveryValue(*p)) break;
            walked = p->inputs[0];
        }
        consider(value, grid, quantize, concat, 0.0f);
    }

    const LintContext& mContext;
    const StaticRanges& mRanges;
    std::vector<CrushedTensor> mCrushed;
    std::unordered_map<ValueId, size_t> mIndex;
};

// The export's case: an INT8 Concat whose output an INT8 layer quantizes gets its inputs quantized with one scale,
// the largest calibrated amax of its inputs and output / 127 (qdq_placement.cpp, buildConcatGroups).
void exportConcats(const LintContext& context, const CalibrationDiagnosis& calibration, Collector& collector) {
    const Graph& graph = context.graph();
    for (const Node& node : graph.nodes()) {
        if (!isOp(node, "Concat") || node.outputs.empty() || node.outputs[0] == kNoId) continue;
        if (!context.int8Effective(node.id)) continue;
        const auto& consumers = graph.value(node.outputs[0]).consumers;
        if (std::none_of(consumers.begin(), consumers.end(),
                         [&](NodeId c) { return placesOwnQdq(graph.node(c)) && context.int8Effective(c); }))
            continue;
        float amax = 0.0f;
        std::vector<ValueId> members(node.inputs.begin(), node.inputs.end());
        members.push_back(node.outputs[0]);
        for (ValueId v : members)
            if (auto it = calibration.calibratedAmax.find(v); it != calibration.calibratedAmax.end())
                amax = std::max(amax, it->second);
        if (!(amax > 0.0f)) continue;
        const Grid grid{int8Scale(amax), 0, -128, 127};
        for (ValueId in : node.inputs) collector.consider(in, grid, nullptr, &node, amax);
    }
}

}  // namespace

std::vector<CrushedTensor> crushedBoundedTensors(const LintContext& context, const StaticRanges& ranges) {
    Collector collector(context, ranges);
    if (!context.explicitQuantization()) {
        // Without a calibration the export has no scale yet.
        if (const CalibrationDiagnosis* calibration = context.calibration())
            exportConcats(context, *calibration, collector);
        return collector.take();
    }
    for (const Node& node : context.graph().nodes()) {
        if (!isOp(node, "QuantizeLinear") || node.inputs.empty()) continue;
        if (auto grid = quantGrid(context.graph(), node)) collector.quantized(node.inputs[0], *grid, &node);
    }
    return collector.take();
}

}  // namespace ql::rules
