#pragma once
// Time per layer of a predicted engine (engine_prediction.h) on a GPU (gpu_specs.h), issue 28 item 2. An estimate,
// always said to be one. For each layer:
//
//   compute_ms  = 2 x MACs / (peak(precision) x compute_efficiency x int8_efficiency (INT8 only) x fill)
//   memory_ms   = (bytes - cached + cached / 3) / (bandwidth x memory_efficiency)
//   time_ms     = overhead_us / 1000 + max(compute_ms, memory_ms)
//
// INT8 layers take the INT8 kernels' memory efficiency and overhead (int8_memory_efficiency, int8_overhead_us) where
// a profile gives them, so a fit on float reports leaves what it cannot tell about INT8 kernels at its defaults.
//
// peak: the dense tensor-core peak of the layer's precision (FP32 layers: TF32, which trtexec enables; depthwise
// convolutions: the CUDA cores, FP32 rate x2 for FP16, x4 for INT8). fill: a GEMM kernel runs one 64x32 output tile
// per SM at a time, so a layer of fewer tiles than SMs leaves SMs idle: fill = min(1, tiles / SMs). MACs include the
// channel padding of the layout (INT8 32-wide vectors, FP16 8-wide), bytes the activations read and written and the
// weights at their precision; cached: the activations read that another layer has just written, when they fit in
// half the GPU's L2 (read there at 3x the memory bandwidth; 0 for a GPU whose L2 size the table does not know).
// The efficiency and overhead terms are per cost class (CostClass); the defaults are
// documented in docs/performance-model.md and are what a GPU profile (item 3) refits from a user's engine reports.
//
// GPU profile file (JSON, written by the fit, readable and writable by hand):
//   {
//     "format": "quantlens-gpu-profile", "version": 1,          required
//     "gpu": "rtx3060-laptop",                                  required: a row of the GPU table it refines
//     "specs": {"int8_tops", "fp16_tflops", "fp8_tflops",       optional: figures replacing the table's
//               "tf32_tflops", "fp32_tflops", "memory_gbs", "l2_mb", "sms"},
//     "classes": {"convolution": {"compute_efficiency": 0.55,   optional, per cost class; a class or term left out
//                 "memory_efficiency": 0.75, "overhead_us": 3,   keeps its default; the INT8 kernels' memory
//                 "int8_efficiency": 0.8,                        efficiency and overhead, left out, are the
//                 "int8_memory_efficiency": 0.75,                class's (memory_efficiency, overhead_us)
//                 "int8_overhead_us": 3}, ...},
//     "fit": {"reports": [files], "layers": 57, "spearman": 0.84,     optional: how well the terms fit what they were
//             "median_layer_error": 0.21, "p90_layer_error": 0.5,       fitted on (errors are relative: 0.21 = 21%;
//             "total_error": 0.04, "leave_one_out_error": 0.12,         spearman the lowest of the reports', the
//             "per_report": [{"model", "layers", "profile",             total errors the median of the reports')
//                             "observations", "spearman", "median_layer_error",
//                             "measured_ms", "predicted_ms", "total_error", "leave_one_out_error"}]}
//   }
#include <array>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/engine_prediction.h"
#include "core/engine/gpu_specs.h"

namespace ql {

struct ClassTerms {
    double computeEfficiency = 0.5;  // share of the tensor-core peak the class's kernels reach
    double memoryEfficiency = 0.7;   // share of the memory bandwidth
    double overheadUs = 3.0;         // launch and ramp per layer
    double int8Efficiency = 0.8;     // INT8 kernels' share of the INT8 peak, relative to computeEfficiency
    // INT8 kernels' own memory efficiency and overhead; none: memoryEfficiency and overheadUs (the unfitted terms,
    // profiles written before 2026-11-29). The fit sets them, from INT8 layers only (gpu_profile_fit.h).
    std::optional<double> int8MemoryEfficiency{};
    std::optional<double> int8OverheadUs{};
    double memoryEfficiencyOf(EnginePrecision precision) const {
        return precision == EnginePrecision::Int8 ? int8MemoryEfficiency.value_or(memoryEfficiency) : memoryEfficiency;
    }
    double overheadUsOf(EnginePrecision precision) const {
        return precision == EnginePrecision::Int8 ? int8OverheadUs.value_or(overheadUs) : overheadUs;
    }
};

// The files a fitted report was read from.
struct FitReportFiles {
    std::string model;
    std::string layers;
    std::string profile;
};

// How a fitted profile times one of the reports it was fitted on (relative errors: 0.21 = 21%).
struct FitReportQuality {
    FitReportFiles files;
    int layers = 0;  // observations: matched groups of layers with a measured time
    std::optional<double> spearman;
    double medianLayerError = 0.0;
    double measuredMs = 0.0;   // the report's total
    double predictedMs = 0.0;  // the prediction's total
    double totalError = 0.0;
    std::optional<double> leaveOneOutError;  // its total predicted by a fit on the other reports
};

struct FitQuality {
    std::vector<std::string> reports;  // the layer information files
    int layers = 0;
    double spearman = 0.0;  // the lowest of the reports'
    double medianLayerError = 0.0;
    double totalError = 0.0;  // the median of the reports'
    double p90LayerError = 0.0;
    std::optional<double> leaveOneOutError{};  // the median of the reports' (two or more reports)
    std::vector<FitReportQuality> perReport{};
    // What a prediction with the profile says it may be off by: the leave-one-out error where there is one (a
    // report the fit did not see), else the fit's own total error.
    double checkedError() const { return leaveOneOutError.value_or(totalError); }
};

struct GpuProfile {
    GpuSpec gpu;
    std::array<ClassTerms, kCostClassCount> classes;
    std::optional<FitQuality> fit;  // set when the terms were fitted to engine reports
    std::string file;               // where it was read from; empty for the table's defaults
};

// The unfitted profile of a GPU of the table: its specifications and the default terms.
GpuProfile defaultGpuProfile(const GpuSpec& gpu);
const ClassTerms& defaultClassTerms(CostClass cls);

Result<GpuProfile> gpuProfileFromJson(const nlohmann::json& json, const std::string& label);
Result<GpuProfile> loadGpuProfile(const std::string& path);
nlohmann::json gpuProfileToJson(const GpuProfile& profile);
Status saveGpuProfile(const GpuProfile& profile, const std::string& path);

struct LayerTime {
    double ms = 0.0;
    double computeMs = 0.0;
    double memoryMs = 0.0;
    double overheadMs = 0.0;
    bool computeBound() const { return computeMs >= memoryMs; }
};

LayerTime layerTime(const PredictedLayer& layer, const GpuProfile& profile);

struct BodyEstimate;

struct LatencyEstimate {
    std::vector<LayerTime> layers;  // one per predicted layer
    // The layers' times, and the bodies' that run: an If counts its slower branch (the one taken is known only when
    // it runs), a Loop its body times its constant trip count (once when only a run knows it), a Scan its body once.
    double totalMs = 0.0;
    double reformatMs = 0.0;           // the reformats' share of totalMs, the counted bodies' included
    std::vector<BodyEstimate> bodies;  // one per EnginePrediction::bodies
    double bodiesMs = 0.0;             // the bodies' share of totalMs
};

struct BodyEstimate {
    std::shared_ptr<const LatencyEstimate> estimate;  // of one run of the body
    double countedMs = 0.0;                           // what the body adds to the enclosing total (0: not counted)
};

LatencyEstimate estimateLatency(const EnginePrediction& prediction, const GpuProfile& profile);

// How far off the unfitted model's total latency was where it was checked against real engines (bench/README.md,
// bench/engine_predict_bench.py): the median relative error of the totals, and the sentence that says where.
double checkedTotalError();
const char* checkedErrorNote();

}  // namespace ql
