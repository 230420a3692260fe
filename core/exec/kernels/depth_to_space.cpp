#include "core/exec/kernels/depth_to_space.h"

#include <array>

#include "core/exec/kernels/copy_util.h"

namespace ql {

namespace {

Result<int64_t> blockSize(const KernelInit& info) {
    const int64_t block = info.node.intAttribute("blocksize", 0);
    if (block < 1) return info.fail("blocksize must be a positive integer");
    return block;
}

Status checkRank4(const KernelContext& ctx, const Tensor& in) {
    if (in.rank() != 4) return ctx.fail("the input must be 4-D (NCHW), not " + shapeString(in.shape()));
    return Status::ok();
}

}  // namespace

Status DepthToSpaceKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mBlock, blockSize(info));
    const std::string mode = info.node.stringAttribute("mode", "DCR");
    if (mode != "DCR" && mode != "CRD") return info.fail("mode '" + mode + "' is not DCR or CRD");
    mColumnRowDepth = mode == "CRD";
    return Status::ok();
}

Status DepthToSpaceKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    QL_RETURN_IF_ERROR(checkRank4(ctx, in));
    const int64_t n = in.dim(0), c = in.dim(1), h = in.dim(2), w = in.dim(3), b = mBlock;
    if (c % (b * b) != 0) return ctx.fail("channels " + std::to_string(c) + " are not divisible by blocksize^2");
    const int64_t oc = c / (b * b);
    const Shape view = mColumnRowDepth ? Shape{n, oc, b, b, h, w} : Shape{n, b, b, oc, h, w};
    const std::array<int64_t, 6> perm =
        mColumnRowDepth ? std::array<int64_t, 6>{0, 1, 4, 2, 5, 3} : std::array<int64_t, 6>{0, 3, 4, 1, 5, 2};
    Tensor& out = ctx.allocateOutput(0, in.dtype(), {n, oc, h * b, w * b});
    permuteCopy(bytesOf(in), view, perm, bytesOf(out), dataTypeSize(in.dtype()));
    return Status::ok();
}

Status SpaceToDepthKernel::init(const KernelInit& info) {
    QL_ASSIGN_OR_RETURN(mBlock, blockSize(info));
    return Status::ok();
}

Status SpaceToDepthKernel::compute(KernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    QL_RETURN_IF_ERROR(checkRank4(ctx, in));
    const int64_t n = in.dim(0), c = in.dim(1), h = in.dim(2), w = in.dim(3), b = mBlock;
    if (h % b != 0 || w % b != 0) return ctx.fail("height and width must be divisible by blocksize");
    const std::array<int64_t, 6> perm{0, 3, 5, 1, 2, 4};
    Tensor& out = ctx.allocateOutput(0, in.dtype(), {n, c * b * b, h / b, w / b});
    permuteCopy(bytesOf(in), {n, c, h / b, b, w / b, b}, perm, bytesOf(out), dataTypeSize(in.dtype()));
    return Status::ok();
}

}  // namespace ql
