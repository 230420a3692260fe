#pragma once
// The one table of operator kernels, keyed by (domain, op type, opset range).
#include <memory>
#include <span>
#include <string_view>

#include "core/exec/kernel.h"

namespace ql {

using KernelFactory = std::unique_ptr<Kernel> (*)();

struct KernelRegistration {
    std::string_view domain;  // "" = ai.onnx
    std::string_view opType;
    int sinceVersion;  // first opset this kernel implements
    int untilVersion;  // last opset (inclusive)
    KernelFactory create;
};

std::span<const KernelRegistration> kernelRegistrations();
// The kernel for an op at the model's opset, or null when none is registered.
const KernelRegistration* findKernel(std::string_view domain, std::string_view opType, int64_t opset);

// A factory for kernels with a default constructor: { "", "Relu", 6, 99, &make<ReluKernel> }.
template <typename K>
std::unique_ptr<Kernel> make() {
    return std::make_unique<K>();
}

}  // namespace ql
