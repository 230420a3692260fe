#pragma once
#include <optional>

#include "core/exec/kernel.h"

namespace ql {

// `in` converted to `to` (numeric, bool, float16, bfloat16); nullopt when either type is not one of those.
std::optional<Tensor> castTensor(const Tensor& in, DataType to);

// Cast (to the `to` attribute) and CastLike (to input 1's dtype) between every numeric dtype, bool,
// float16 and bfloat16 (16-bit floats round to nearest even). A cast to the same dtype shares the input.
class CastKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mLike = false;
    DataType mTo = DataType::Undefined;
};

}  // namespace ql
