#pragma once
#include "core/exec/kernel.h"

namespace ql {

// Tile: repeats the input repeats[i] times along each axis i.
class TileKernel final : public Kernel {
public:
    Status compute(KernelContext& ctx) override;
};

}  // namespace ql
