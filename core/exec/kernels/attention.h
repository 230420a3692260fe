#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Attention (opsets 23, 24): softmax(Q·Kᵀ · scale + bias) · V per head, Q/K/V 4-D [batch, heads, seq, head_size] or
// 3-D [batch, seq, heads * head_size] (q_num_heads / kv_num_heads); grouped-query attention (query head h reads
// key/value head h / (q_heads / kv_heads)); past_key / past_value concatenated before K / V (outputs present_key,
// present_value); attn_mask boolean (false: masked) or additive, broadcast to [batch, q_heads, q_seq, total_seq] and
// padded with -inf when shorter; opset 24's nonpad_kv_seqlen (keys past each batch entry's length masked); is_causal
// (the spec's upper-left alignment); softcap; qk_matmul_output modes 0-3; scale (default 1 / sqrt(head_size)). Float,
// double, float16 and bfloat16 (computed in float).
class AttentionKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mCausal = false;
    int64_t mQHeads = 0, mKvHeads = 0, mQkMode = 0;
    float mScale = 0.0f, mSoftcap = 0.0f;
};

}  // namespace ql
