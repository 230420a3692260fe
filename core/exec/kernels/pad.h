#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// Pad in modes constant, reflect, edge (and wrap, opset 19). pads and value are attributes before opset 11,
// then inputs (pads, optional constant_value, optional axes from 18). Negative pads crop.
class PadKernel final : public Kernel {
public:
    enum class Mode { Constant, Reflect, Edge, Wrap };

    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    Result<std::vector<std::byte>> fillValue(const KernelContext& ctx, DataType dtype) const;

    Mode mMode = Mode::Constant;
    bool mFromInputs = true;
    std::vector<int64_t> mPads;  // opset < 11
    float mValue = 0.0f;         // opset < 11
};

}  // namespace ql
