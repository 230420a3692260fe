#include "core/exec/elementwise_chain.h"

#include <algorithm>

#include "core/common/target_clones.h"
#include "core/exec/kernels/elementwise_util.h"
#include "core/exec/kernels/unary_math.h"
#include "core/model/constant_values.h"

namespace ql {

namespace {

constexpr int64_t kBlock = 1024;  // floats per block: the block and its running values stay in L1

// y = op(current, other) or op(other, current), other x[i] or the scalar; the choice made outside the loops
// so each one vectorises.
template <typename Op>
inline void binary(const float* current, const float* x, float scalar, bool withInput, bool currentFirst, float* y,
                   int64_t n, Op op) {
    if (withInput && currentFirst)
        for (int64_t i = 0; i < n; ++i) y[i] = op(current[i], x[i]);
    else if (withInput)
        for (int64_t i = 0; i < n; ++i) y[i] = op(x[i], current[i]);
    else if (currentFirst)
        for (int64_t i = 0; i < n; ++i) y[i] = op(current[i], scalar);
    else
        for (int64_t i = 0; i < n; ++i) y[i] = op(scalar, current[i]);
}

// Every operation in turn over one block of x (y may hold the running value: each loop reads an element
// before it writes it). Cloned per vector width (baseline build); each loop is one IEEE operation per element,
// the same at any width, and Erf is erfFloat itself.
QL_TARGET_CLONES("avx512f", "avx2", "default")
void applyChain(const ChainOperation* ops, size_t count, const float* x, float* y, int64_t n) {
    const float* current = x;
    for (size_t k = 0; k < count; ++k) {
        const ChainOperation& op = ops[k];
        using Kind = ChainOperation::Kind;
        switch (op.kind) {
            case Kind::Add:
                binary(current, x, op.scalar, op.withInput, op.currentFirst, y, n,
                       [](float a, float b) { return a + b; });
                break;
            case Kind::Sub:
                binary(current, x, op.scalar, op.withInput, op.currentFirst, y, n,
                       [](float a, float b) { return a - b; });
                break;
            case Kind::Mul:
                binary(current, x, op.scalar, op.withInput, op.currentFirst, y, n,
                       [](float a, float b) { return a * b; });
                break;
            case Kind::Div:
                binary(current, x, op.scalar, op.withInput, op.currentFirst, y, n,
                       [](float a, float b) { return a / b; });
                break;
            case Kind::Erf:
                erfFloat(current, y, n);
                break;
        }
        current = y;
    }
}

}  // namespace

ElementwiseChainKernel::ElementwiseChainKernel(const Graph& graph, const ElementwiseChain& chain) {
    ValueId current = chain.input;
    for (NodeId id : chain.nodes) {
        const Node& node = graph.node(id);
        ChainOperation op;
        using Kind = ChainOperation::Kind;
        op.kind = node.opType == "Add"   ? Kind::Add
                  : node.opType == "Sub" ? Kind::Sub
                  : node.opType == "Mul" ? Kind::Mul
                  : node.opType == "Div" ? Kind::Div
                                         : Kind::Erf;
        if (op.kind != Kind::Erf) {
            op.currentFirst = node.inputs[0] == current;
            const ValueId other = node.inputs[op.currentFirst ? 1 : 0];
            op.withInput = other == chain.input;
            if (!op.withInput) op.scalar = constantFloats(graph, other).value().front();
        }
        mOperations.push_back(op);
        current = node.outputs[0];
    }
}

Status ElementwiseChainKernel::compute(KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::Float) return ctx.fail("the fused elementwise chain takes float input only");
    Tensor& y = ctx.allocateOutput(0, DataType::Float, x.shape());
    const float* in = x.data<float>();
    float* out = y.data<float>();
    parallelFor(x.elementCount(), kElementwiseGrain, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; b += kBlock)
            applyChain(mOperations.data(), mOperations.size(), in + b, out + b, std::min(kBlock, end - b));
    });
    return Status::ok();
}

}  // namespace ql
