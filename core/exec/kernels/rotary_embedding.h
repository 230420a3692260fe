#pragma once
#include "core/exec/kernel.h"

namespace ql {

// RotaryEmbedding (opset 23): rotates the first rotary_embedding_dim (0: all) values of each head of X — [batch,
// heads, seq, head_size], or [batch, seq, hidden] with num_heads — by the angles of cos_cache / sin_cache ([batch, seq,
// dim / 2], or [positions, dim / 2] indexed by position_ids [batch, seq]), pairing the two halves or, interleaved,
// neighbouring values; the rest pass through. Float, double, float16 and bfloat16 (computed in float).
class RotaryEmbeddingKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mInterleaved = false;
    int64_t mRotaryDim = 0, mHeads = 0;
};

}  // namespace ql
