#include "core/exec/kernels/random.h"

#include "core/exec/kernels/loss_util.h"

namespace ql {

Status RandomKernel::init(const KernelInit& info) {
    const std::string& op = info.node.opType;
    mNormal = op.starts_with("RandomNormal");
    mLike = op.ends_with("Like");
    mLow = info.node.floatAttribute(mNormal ? "mean" : "low", 0.0f);
    mHigh = info.node.floatAttribute(mNormal ? "scale" : "high", 1.0f);
    mHasDtype = info.node.attribute("dtype") != nullptr;
    mDtype = dataTypeFromOnnx(static_cast<int32_t>(info.node.intAttribute("dtype", 1)));
    if (mHasDtype && mDtype != DataType::Float && mDtype != DataType::Double && mDtype != DataType::Float16 &&
        mDtype != DataType::BFloat16)
        return info.fail("dtype must be a floating-point type");
    mShape = info.node.intsAttribute("shape");
    if (!mLike && !info.node.attribute("shape")) return info.fail("needs the shape attribute");
    mHasSeed = info.node.attribute("seed") != nullptr;
    mSeed = static_cast<uint32_t>(info.node.floatAttribute("seed", 0.0f));
    mEngine.seed(mHasSeed ? mSeed : std::random_device{}());
    return Status::ok();
}

Status RandomKernel::compute(KernelContext& ctx) {
    Shape shape = mShape;
    DataType dtype = mDtype;
    if (mLike) {
        if (!ctx.hasInput(0)) return ctx.fail("needs an input");
        shape = ctx.input(0).shape();
        if (!mHasDtype) dtype = ctx.input(0).dtype();
        if (dtype != DataType::Float && dtype != DataType::Double &&
            !(dtype == DataType::Float16 || dtype == DataType::BFloat16))
            return ctx.fail("the input's type " + std::string(dataTypeName(dtype)) +
                            " is not floating-point: set dtype");
    }
    if (mHasSeed) mEngine.seed(mSeed);  // the same values on every run
    std::vector<double> values(static_cast<size_t>(shapeElementCount(shape)));
    if (mNormal) {
        std::normal_distribution<double> normal(mLow, mHigh);
        for (double& v : values) v = normal(mEngine);
    } else {
        std::uniform_real_distribution<double> uniform(mLow, mHigh);
        for (double& v : values) v = uniform(mEngine);
    }
    ctx.setOutput(0, floatingTensor(dtype, shape, values));
    return Status::ok();
}

}  // namespace ql
