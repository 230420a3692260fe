// trt-int8-attention-shape: INT8 attention at sequence lengths or head sizes TensorRT's INT8 MHA kernel does not
// take, where NVIDIA's tools keep attention in float.
#include <algorithm>

#include "core/lint/lint_context.h"
#include "core/lint/rules/rules.h"
#include "core/model/attention_pattern.h"

namespace ql::rules {

namespace {

constexpr RuleInfo kInfo{
    "trt-int8-attention-shape", Severity::Warning, kAllTrtVersions,
    "TensorRT's fused INT8 multi-head-attention kernel takes head sizes 16, 32 or 64 and sequence lengths (query and "
    "key) up to 512. Longer sequences run as separate INT8 GEMMs and a Softmax with the full score matrix in memory, "
    "and INT8 scores over many keys lose the small probabilities that matter; NVIDIA's Model Optimizer therefore "
    "drops the Q/DQ of attention whose sequence is longer than 512 and leaves it in FP16, and QuantLens' default "
    "placement does the same. A head size outside 16/32/64 only loses the fused INT8 kernel (FP16 fused attention "
    "takes 16 to 256, a multiple of 8).",
    "TensorRT best practices \"Multi-Head Attention Fusion\" (INT8: head size 16, 32 or 64, S_q and S_kv <= 512), "
    "quoted in NVIDIA/TensorRT#2981 and #4167; NVIDIA Model Optimizer modelopt/onnx/quantization int8.py, "
    "graph_utils.py, partitioning.py (attention Q/DQ dropped for sequence length > 512)"};

constexpr int64_t kMaxInt8Sequence = 512;

bool int8HeadSize(int64_t h) {
    return h == 16 || h == 32 || h == 64;
}

class Int8AttentionShapeRule final : public LintRule {
public:
    const RuleInfo& info() const override { return kInfo; }

    void check(const LintContext& context, std::vector<Finding>& findings) const override {
        const Graph& graph = context.graph();
        for (const AttentionPattern& p : findAttentionPatterns(graph)) {
            if (p.context == kNoId || graph.node(p.scores).opType != "MatMul") continue;
            if (!context.int8Planned(p.scores) && !context.int8Planned(p.context)) continue;
            const Node& scores = graph.node(p.scores);
            const int64_t longest = std::max(p.queryLength, p.keyLength);
            if (longest > kMaxInt8Sequence) {
                findings.push_back(context.finding(
                    kInfo, scores, Severity::Warning,
                    lintText("INT8 attention over ", p.queryLength, " queries x ", p.keyLength,
                             " keys: TensorRT's INT8 MHA kernel stops at ", kMaxInt8Sequence,
                             ", so the scores run as separate INT8 GEMMs and NVIDIA's tools keep such attention in "
                             "FP16"),
                    lintText("run '", scores.name, "' and '", graph.node(p.context).name, "' in FP16")));
            } else if (p.headSize > 0 && !int8HeadSize(p.headSize)) {
                findings.push_back(context.finding(
                    kInfo, scores, Severity::Info,
                    lintText("INT8 attention with head size ", p.headSize,
                             ": TensorRT's fused INT8 MHA kernel takes 16, 32 or 64, so this attention runs "
                             "unfused in INT8"),
                    "keep the attention's batched MatMuls in FP16 (fused for head sizes 16-256, multiples of 8), "
                    "or accept the unfused INT8 GEMMs"));
            }
        }
    }
};

}  // namespace

std::unique_ptr<LintRule> makeInt8AttentionShapeRule() {
    return std::make_unique<Int8AttentionShapeRule>();
}

}  // namespace ql::rules
