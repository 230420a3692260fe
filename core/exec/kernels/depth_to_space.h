#pragma once
#include <string>

#include "core/exec/kernel.h"

namespace ql {

// DepthToSpace (modes DCR and CRD) and its inverse SpaceToDepth: a reshape, a transpose and a reshape.
class DepthToSpaceKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mBlock = 0;
    bool mColumnRowDepth = false;  // mode CRD
};

class SpaceToDepthKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    int64_t mBlock = 0;
};

}  // namespace ql
