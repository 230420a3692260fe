#pragma once
// Simulates a precision plan on the CPU executor, as TensorRT would run it:
//   INT8: the quantized inputs are exactly the Q/DQ edges the export writes (placeQdq in qdq_placement.h,
//     run on this graph with the plan's effective precisions and the calibration's amax): activations per
//     tensor, weights per channel (or per tensor for ConvTranspose, per QdqOptions), each quantize-dequantized
//     with the edge's float scale as an ONNX QuantizeLinear/DequantizeLinear pair (zero point 0, ties to
//     even, [-128, 127]). So the residual Add quantizes its skip input only, an INT8 Concat shares one scale,
//     pooling inputs are quantized, and epilogues / pass-through ops are left alone, as in the export.
//   FP16 nodes: float inputs (weights included) and outputs are rounded to half.
//   FP32 nodes, and INT8 layers the placement lets fall back: untouched.
//   A BatchNormalization the export folds into the layer before it (batchnorm_fold.h): the weight is quantized
//     as exported, folded (W * s, with the folded weight's scales), then divided by s again, since the
//     BatchNormalization still runs after the layer here; the reports keep naming the model's own nodes.
//   Bodies of If/Loop/Scan nodes with a plan of their own (PrecisionPlan::bodies): simulated by a simulator of
//     their own over the body's graph, with the body's calibration (body_calibration.h), as the export writes them.
// Not modelled: other constant subgraphs than Identity chains that the export folds.
#include <map>
#include <memory>
#include <vector>

#include "core/exec/executor.h"
#include "core/model/subgraph_model.h"
#include "core/quant/calibration.h"
#include "core/quant/precision_plan.h"
#include "core/quant/qdq_placement.h"

namespace ql {

// Quantize-dequantize into a fresh float tensor (`x` is not modified) with the float scale(s) of a Q/DQ
// pair: one scale for the whole tensor, or one per index of `axis`.
Tensor fakeQuantize(const Tensor& x, const std::vector<float>& scales, int64_t axis = 1);
Tensor roundToHalf(const Tensor& x);

class QuantSimulator final : public NodeInterceptor {
public:
    // `graph`, `plan` and `calibration` must outlive the simulator. `options` are the export's (the defaults are
    // `quantize`'s: ConvTranspose weights per tensor). Fails when an INT8 layer reads an activation the calibration has
    // no amax for (naming it).
    static Result<std::unique_ptr<QuantSimulator>> create(const Graph& graph, const PrecisionPlan& plan,
                                                          const CalibrationResult& calibration,
                                                          const QdqOptions& options = {});

    // FP16 nodes and the nodes with a quantized input; the others run as in FP32 (fused).
    bool intercepts(const Node& node) const override;
    Status beforeNode(const Node& node, std::vector<Tensor>& inputs) override;
    Status afterNode(const Node& node, std::vector<Tensor>& outputs) override;
    // The simulator of a planned body; null for a body that runs float.
    NodeInterceptor* nested(const Node& node, const std::string& attribute, const Graph& body) override;

private:
    // A planned body with an INT8 or FP16 node: its graph (built as the executor builds it, so node ids agree) and
    // its simulator.
    struct Body {
        std::string node, attribute;
        SubgraphModel model;
        CalibrationResult calibration;
        std::unique_ptr<QuantSimulator> simulator;
    };
    Status prepareBodies(const PrecisionPlan& plan, const CalibrationResult& calibration, const QdqOptions& options);
    struct NodeRule {
        Precision precision = Precision::Fp32;
        std::vector<const QdqEdge*> edges;  // per input, null when the input is not quantized
    };
    explicit QuantSimulator(const Graph& graph) : mGraph(graph) {}
    Status prepare(const PrecisionPlan& plan, const CalibrationResult& calibration, const QdqOptions& options);
    const Tensor& quantizedWeight(const QdqEdge& edge, const Tensor& weight);

    const Graph& mGraph;
    QdqPlacement mPlacement;
    std::vector<NodeRule> mRules;                                    // per node
    std::map<std::pair<NodeId, int32_t>, Tensor> mQuantizedWeights;  // computed on first use
    std::vector<std::unique_ptr<Body>> mBodies;
    // What a body whose graph is not the one planned runs with: it fails, naming the body, rather than run float.
    struct FailingInterceptor final : NodeInterceptor {
        explicit FailingInterceptor(const std::string* text) : message(text) {}
        const std::string* message;
        Status beforeNode(const Node&, std::vector<Tensor>&) override { return internalError(*message); }
        Status afterNode(const Node&, std::vector<Tensor>&) override { return Status::ok(); }
    };
    std::string mMismatch;
    FailingInterceptor mFailing{&mMismatch};
};

}  // namespace ql
