#pragma once
// Public specifications of the GPUs the latency model (latency_model.h) times layers on: dense tensor-core peaks by
// precision, memory bandwidth, SM count and compute capability, each row with the page it comes from. Peaks are
// dense (NVIDIA's datasheets print sparse figures twice as large); GeForce and RTX rows give the FP16 rate with FP16
// accumulation, which TensorRT's f16f16_f16f16_f16 kernels use. Where a page gives only clocks and SM counts, the
// peak is SMs x clock x the per-SM rate of the architecture's whitepaper, and `derivation` says so; likewise the L2
// size, which product pages rarely print (architecture whitepapers do; GA10x: 512 KB per 32-bit memory controller).
#include <string>
#include <vector>

namespace ql {

struct GpuSpec {
    std::string name;               // the --gpu key: "t4", "rtx3060-laptop", "jetson-orin-nano"
    std::string displayName;        // "NVIDIA GeForce RTX 3060 Laptop GPU"
    std::string computeCapability;  // "8.6"
    int sms = 0;
    double int8Tops = 0.0;    // dense INT8 tensor-core peak
    double fp16Tflops = 0.0;  // dense FP16 tensor-core peak
    double fp8Tflops = 0.0;   // dense FP8 tensor-core peak; 0: no FP8 tensor cores
    double tf32Tflops = 0.0;  // dense TF32 tensor-core peak (FP32 layers; trtexec enables TF32); 0: none
    double fp32Tflops = 0.0;  // FP32 on the CUDA cores (depthwise and other non-tensor-core work)
    double memoryGBs = 0.0;   // memory bandwidth, GB/s
    double l2MB = 0.0;        // L2 cache, MB; 0: not known (the latency model then charges every read to memory)
    std::string source;       // the public page the figures come from
    std::string derivation;   // how a figure not printed there was derived; empty when all are printed
};

// Every GPU of the table, in a fixed order.
const std::vector<GpuSpec>& gpuSpecs();
// By name or display name, case, spaces, '-' and '_' ignored ("RTX 3060 Laptop", "rtx3060_laptop"), and a few
// short forms ("orin" -> jetson-agx-orin); nullptr when unknown.
const GpuSpec* findGpu(const std::string& name);
// "t4, a10, a100, ..." for messages.
std::string knownGpuNames();

}  // namespace ql
