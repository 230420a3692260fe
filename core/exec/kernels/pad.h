#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/exec/layout_ops.h"

namespace ql {

// Pad in modes constant, reflect, edge (and wrap, opset 19). pads and value are attributes before opset 11,
// then inputs (pads, optional constant_value, optional axes from 18). Negative pads crop. Constant pads that
// are all zero (exporters emit them before DenseNet's AveragePool) pass the input through in any layout.
class PadKernel final : public Kernel, public LayoutAwareKernel {
public:
    enum class Mode { Constant, Reflect, Edge, Wrap };

    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;
    uint32_t layoutInputs() const override { return mNoPadding ? 1u : 0u; }

private:
    Result<std::vector<std::byte>> fillValue(const KernelContext& ctx, DataType dtype) const;

    Mode mMode = Mode::Constant;
    bool mFromInputs = true;
    std::vector<int64_t> mPads;  // opset < 11
    float mValue = 0.0f;         // opset < 11
    bool mNoPadding = false;     // pads are constant zeros: the output is the input
};

}  // namespace ql
