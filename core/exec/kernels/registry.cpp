#include "core/exec/kernels/registry.h"

#include "core/exec/kernels/identity.h"

namespace ql {

namespace {

constexpr int kLatest = 99;

// One row per (op, opset range). Keep rows sorted by op type.
const KernelRegistration kKernels[] = {
    {"", "Identity", 1, kLatest, &make<IdentityKernel>},
};

}  // namespace

std::span<const KernelRegistration> kernelRegistrations() {
    return kKernels;
}

const KernelRegistration* findKernel(std::string_view domain, std::string_view opType, int64_t opset) {
    const std::string_view d = domain == "ai.onnx" ? std::string_view{} : domain;
    for (const auto& k : kKernels)
        if (k.domain == d && k.opType == opType && opset >= k.sinceVersion && opset <= k.untilVersion) return &k;
    return nullptr;
}

}  // namespace ql
