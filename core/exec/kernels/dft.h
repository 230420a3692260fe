#pragma once
#include <complex>
#include <vector>

#include "core/exec/kernel.h"

namespace ql {

// X_k = sum_n x_n e^(-+2 pi i k n / N) over `length` complex values `stride` apart, the first `outputs` bins (in
// double; divided by N when inverse). Missing samples past `available` are zeros (dft_length padding).
void dftLine(const std::complex<double>* x, int64_t available, int64_t stride, int64_t length, bool inverse,
             int64_t outputs, std::complex<double>* out, int64_t outStride);

// DFT (opset 17: axis attribute, dft_length input 1; opset 20+: dft_length input 1 and axis input 2): the discrete
// Fourier transform along `axis` of a real ([..., 1]) or complex ([..., 2]) signal, zero-padded or truncated to
// dft_length; onesided keeps the first N/2 + 1 bins; inverse divides by N. Output [..., 2]. Float, double, float16
// and bfloat16 (computed in double).
class DftKernel final : public Kernel {
public:
    Status init(const KernelInit& info) override;
    Status compute(KernelContext& ctx) override;

private:
    bool mAxisInput = false;
    int64_t mAxis = 1;
    bool mInverse = false, mOnesided = false;
};

}  // namespace ql
