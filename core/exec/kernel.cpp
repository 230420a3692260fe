#include "core/exec/kernel.h"

namespace ql {

Status KernelInit::fail(const std::string& what) const {
    return unsupported(nodeErrorMessage(node, what));
}

Status KernelContext::fail(const std::string& what) const {
    return invalidArgument(nodeErrorMessage(mNode, what));
}

Tensor& KernelContext::allocateOutput(size_t i, DataType dtype, Shape shape) {
    mOutputs.at(i) = Tensor(dtype, std::move(shape));
    return mOutputs[i];
}

void KernelContext::setOutput(size_t i, Tensor tensor) {
    mOutputs.at(i) = std::move(tensor);
}

}  // namespace ql
