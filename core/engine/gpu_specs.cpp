#include "core/engine/gpu_specs.h"

#include <cctype>
#include <map>

namespace ql {

namespace {

constexpr const char* kGa102 =
    "https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf";
constexpr const char* kAda = "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf";
constexpr const char* kGa10xRate =
    "tensor peaks = SMs x boost clock x the GA10x SM's dense rates (1024 FP16 FLOP, 2048 INT8 OP, 256 TF32 FLOP per "
    "clock, FP16 accumulate; GA102 whitepaper, Appendix A)";
constexpr const char* kAdaRate =
    "tensor peaks = SMs x boost clock x the Ada SM's dense rates (1024 FP16 FLOP, 2048 INT8/FP8 OP, 256 TF32 FLOP per "
    "clock, FP16 accumulate; Ada whitepaper, Appendix A)";
constexpr const char* kOrinRate =
    "dense = half the sparse GPU tensor figure; FP16 = half of INT8; TF32 = a quarter of INT8 (Orin's GA10B SM has "
    "GA100-class tensor cores)";

std::vector<GpuSpec> makeTable() {
    // name, display, cc, SMs, INT8, FP16, FP8, TF32, FP32, GB/s, L2 MB, source, derivation
    return {
        {"t4", "NVIDIA T4", "7.5", 40, 130, 65, 0, 0, 8.1, 320, 4,
         "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf",
         "L2: TU104's 4 MB (Turing whitepaper)"},
        {"a10", "NVIDIA A10", "8.6", 72, 250, 125, 0, 62.5, 31.2, 600, 6,
         "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf",
         "L2: GA102's 384-bit bus x 512 KB per 32-bit controller = 6 MB (GA102 whitepaper)"},
        {"a100", "NVIDIA A100 SXM4 80GB", "8.0", 108, 624, 312, 0, 156, 19.5, 2039, 40,
         "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
         "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
         "L2: 40 MB (A100 whitepaper)"},
        {"a100-40gb", "NVIDIA A100 SXM4 40GB", "8.0", 108, 624, 312, 0, 156, 19.5, 1555, 40,
         "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
         "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
         "L2: 40 MB (A100 whitepaper)"},
        {"l4", "NVIDIA L4", "8.9", 58, 242.5, 121, 242.5, 60, 30.3, 300, 48,
         "https://www.nvidia.com/en-us/data-center/l4/",
         "dense = half the printed sparse tensor figures; L2: AD104's 48 MB (Ada whitepaper)"},
        {"l40s", "NVIDIA L40S", "8.9", 142, 733, 366, 733, 183, 91.6, 864, 0,
         "https://www.nvidia.com/en-us/data-center/l40s/", "dense = half the printed sparse tensor figures"},
        {"h100", "NVIDIA H100 SXM5", "9.0", 132, 1979, 989, 1979, 494.5, 67, 3350, 50,
         "https://www.nvidia.com/en-us/data-center/h100/",
         "dense = half the printed sparse tensor figures; L2: 50 MB (H100 whitepaper)"},
        {"h100-pcie", "NVIDIA H100 PCIe", "9.0", 114, 1513, 756, 1513, 378, 51, 2000, 50,
         "https://www.nvidia.com/en-us/data-center/h100/",
         "dense = half the printed sparse tensor figures; L2: 50 MB (H100 whitepaper)"},
        {"h200", "NVIDIA H200 SXM", "9.0", 132, 1979, 989, 1979, 494.5, 67, 4800, 50,
         "https://www.nvidia.com/en-us/data-center/h200/",
         "dense = half the printed sparse tensor figures; L2: GH100's 50 MB (H100 whitepaper)"},
        {"rtx3060", "NVIDIA GeForce RTX 3060", "8.6", 28, 101.9, 50.9, 0, 12.7, 12.7, 360, 3,
         "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/",
         std::string(kGa10xRate) +
             " at 1.777 GHz; L2: 192-bit bus x 512 KB per 32-bit controller = 3 MB (GA102 whitepaper)"},
        {"rtx3060-laptop", "NVIDIA GeForce RTX 3060 Laptop GPU", "8.6", 30, 104.6, 52.3, 0, 13.1, 13.1, 336, 3,
         "https://www.nvidia.com/en-us/geforce/laptops/30-series/",
         std::string(kGa10xRate) +
             " at 1.703 GHz, the top of the 1.283-1.703 GHz range (the clock depends on the "
             "laptop's power limit); L2: 192-bit bus x 512 KB per 32-bit controller = 3 MB (GA102 whitepaper)"},
        {"rtx3080", "NVIDIA GeForce RTX 3080", "8.6", 68, 238, 119, 0, 29.8, 29.8, 760, 5, kGa102,
         "L2: 320-bit bus x 512 KB per 32-bit controller = 5 MB"},
        {"rtx3090", "NVIDIA GeForce RTX 3090", "8.6", 82, 284, 142, 0, 35.6, 35.6, 936, 6, kGa102,
         "L2: 384-bit bus x 512 KB per 32-bit controller = 6 MB"},
        {"rtx4090", "NVIDIA GeForce RTX 4090", "8.9", 128, 660.6, 330.3, 660.6, 82.6, 82.6, 1008, 72, kAda,
         "L2: 72 MB (Ada whitepaper, Appendix A)"},
        {"rtx2000-ada", "NVIDIA RTX 2000 Ada Generation", "8.9", 22, 96.0, 48.0, 96.0, 12.0, 12.0, 224, 0,
         "https://www.nvidia.com/en-us/design-visualization/rtx-2000/",
         std::string(kAdaRate) + " at 2.13 GHz (the page's 191.9 AI TOPS is sparse FP8: 96 dense)"},
        {"rtx2000-ada-laptop", "NVIDIA RTX 2000 Ada Generation Laptop GPU", "8.9", 24, 98.3, 49.2, 98.3, 12.3, 12.3,
         256, 0, "https://www.nvidia.com/en-us/design-visualization/laptop-graphics/",
         std::string(kAdaRate) + " at 2.0 GHz (laptop clocks depend on the power limit); 128-bit GDDR6 at 16 Gbps"},
        {"jetson-agx-orin", "NVIDIA Jetson AGX Orin 64GB", "8.7", 16, 85, 42.5, 0, 21.3, 5.3, 204.8, 4,
         "https://www.nvidia.com/content/dam/en-zz/Solutions/gtcf21/jetson-orin/"
         "nvidia-jetson-agx-orin-technical-brief.pdf",
         std::string(kOrinRate) + "; the GPU's 170 sparse INT8 TOPS at 1.3 GHz; L2: 4 MB (the technical brief)"},
        {"jetson-orin-nano", "NVIDIA Jetson Orin Nano 8GB", "8.7", 8, 20, 10, 0, 5, 1.28, 68, 0,
         "https://developer.nvidia.com/embedded/jetson-modules",
         std::string(kOrinRate) + "; 40 sparse INT8 TOPS at 625 MHz"},
        {"jetson-orin-nano-super", "NVIDIA Jetson Orin Nano 8GB (Super mode)", "8.7", 8, 33.5, 16.7, 0, 8.4, 2.1, 102,
         0, "https://www.nvidia.com/en-us/autonomous-machines/embedded-systems/jetson-orin/nano-super-developer-kit/",
         std::string(kOrinRate) + "; 67 sparse INT8 TOPS at 1.02 GHz"},
        {"jetson-agx-xavier", "NVIDIA Jetson AGX Xavier", "7.2", 8, 22, 11, 0, 0, 1.4, 136.5, 0,
         "https://developer.nvidia.com/embedded/jetson-agx-xavier-developer-kit",
         "22 INT8 TOPS and 11 FP16 TFLOPS of the Volta GPU's 64 tensor cores at 1.377 GHz"},
    };
}

std::string squashed(const std::string& text) {
    std::string out;
    for (char c : text)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

const std::vector<GpuSpec>& gpuSpecs() {
    static const std::vector<GpuSpec> table = makeTable();
    return table;
}

const GpuSpec* findGpu(const std::string& name) {
    static const std::map<std::string, std::string> shortForms = {{"orin", "jetson-agx-orin"},
                                                                  {"agxorin", "jetson-agx-orin"},
                                                                  {"orinnano", "jetson-orin-nano"},
                                                                  {"xavier", "jetson-agx-xavier"},
                                                                  {"agxxavier", "jetson-agx-xavier"},
                                                                  {"rtx2000adalaptopgpu", "rtx2000-ada-laptop"},
                                                                  {"rtx3060laptopgpu", "rtx3060-laptop"},
                                                                  {"rtx3060mobile", "rtx3060-laptop"},
                                                                  {"h100sxm", "h100"},
                                                                  {"a10080gb", "a100"}};
    std::string key = squashed(name);
    if (key.starts_with("nvidia")) key = key.substr(6);
    if (key.starts_with("geforce")) key = key.substr(7);
    if (const auto it = shortForms.find(key); it != shortForms.end()) key = squashed(it->second);
    for (const GpuSpec& gpu : gpuSpecs()) {
        std::string display = squashed(gpu.displayName);
        if (display.starts_with("nvidia")) display = display.substr(6);
        if (display.starts_with("geforce")) display = display.substr(7);
        if (key == squashed(gpu.name) || key == display) return &gpu;
    }
    return nullptr;
}

std::string knownGpuNames() {
    std::string names;
    for (const GpuSpec& gpu : gpuSpecs()) names += (names.empty() ? "" : ", ") + gpu.name;
    return names;
}

}  // namespace ql
