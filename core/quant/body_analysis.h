#pragma once
// The per-layer error inside If/Loop/Scan bodies, for analysis.h: a body's tensors are named by where they are
// ("route/then_branch/t1", as the executor's nested observers and lint name them), FP32 against the plan.
//   Accumulated: every float output of every body's nodes, planned or not (an unplanned body runs float: its error is
//     what it receives). A Loop or Scan body shows its tensors once per iteration: the FP32 and quantized runs give
//     them in the same order, and they are paired in that order.
//   Isolated: each non-FP32 layer of a planned body alone, on its body's FP32 activations (BodyIsolation, used by
//     analysis.cpp's isolating interceptor through NodeInterceptor::nested).
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "core/quant/analysis.h"

namespace ql {

// The error of each body tensor by path, batch after batch.
class BodyTensorErrors {
public:
    // The FP32 run's tensor at `path` (float only), kept until the quantized run gives its twin. A batch keeps at
    // most kMaxKeptBytes (a Loop of many iterations): later tensors are not measured, and each path's earlier
    // iterations still pair in order.
    void keep(const std::string& path, const Tensor& fp32);
    static constexpr size_t kMaxKeptBytes = size_t{1} << 30;
    // The quantized run's tensor at `path`: compared with the oldest kept one of that path.
    void compare(const std::string& path, const Tensor& quantized);
    // An isolated layer's output against the FP32 one.
    void add(const std::string& path, const Tensor& fp32, const Tensor& isolated);
    // Drops what one batch kept and the other run did not give (a branch taken in FP32 only).
    void endBatch() {
        mKept.clear();
        mKeptBytes = 0;
    }

    // The measured tensors of `graph`'s bodies, nested ones too, as layers in graph order: the bodies in the order of
    // their nodes (nested ones after their node), each body's layers in its graph order. Precision: the effective one
    // of the body's plan in `plan`, FP32 for a body without one.
    std::vector<BodyLayerError> layers(const Graph& graph, const PrecisionPlan& plan) const;

private:
    std::map<std::string, std::deque<Tensor>> mKept;
    size_t mKeptBytes = 0;
    std::map<std::string, ErrorAccumulator> mErrors;
};

}  // namespace ql
