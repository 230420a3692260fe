#pragma once
// `quantize --ab-scripts DIR` (issue 28, item 5): trtexec scripts that build and time, on the user's GPU, the plan's
// export, the all-FP16 model and the plan with each contested region (ab_regions.h) in FP16, so the build decides
// what the prediction could not. Each variant is its own ONNX file (TensorRT 11 takes the precisions from the file:
// Q/DQ for INT8, float16 islands for FP16), built by its own script with the target's flags (trtexec_command.h)
// plus --profilingVerbosity=detailed and the reports `engine` and `fit-gpu` read back:
//   DIR/NAME.onnx, NAME.sh -> NAME.engine, NAME.layers.json (--exportLayerInfo), NAME.profile.json
//   (--exportProfile), NAME.times.json (--exportTimes; --separateProfileRun keeps the profiler out of those times)
// NAME: "plan", "fp16", "region-01-fp16", ... DIR also gets run_all.sh, README.md (how to run and import) and
// ab-scripts.json, the manifest `fit-gpu DIR` reads to say which A/B predictions were wrong (ab_comparison.h):
//   {"format": "quantlens-ab-scripts", "version": 1, "model", "trt", "typing", "gpu", "gpu_profile" (file or null),
//    "variants": [{"name", "onnx", "script", "layers", "profile", "times", "predicted_ms", "description"}],
//    "comparisons": [{"a", "b", "predicted_a_ms", "predicted_b_ms", "what", "reason"}]}
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/ab_regions.h"
#include "core/export/qdq_export.h"
#include "core/export/trtexec_shapes.h"

namespace ql {

// The report files a variant's script writes, for `stem` (the variant's path without ".onnx").
std::string abLayersFile(const std::string& stem);
std::string abProfileFile(const std::string& stem);
std::string abTimesFile(const std::string& stem);

inline constexpr const char* kAbManifest = "ab-scripts.json";

struct AbScriptsInput {
    const Model& model;         // the FP32 model the plan is for
    const PrecisionPlan& plan;  // effective
    const CalibrationResult& calibration;
    QdqOptions qdq;
    ExportTarget target;
    TrtexecShapes shapes;
    GpuProfile profile;  // the user's GPU: which regions are contested
    PlanRealizer realize;
    std::string folder;
    std::string writer;     // "quantlens-cli"
    size_t maxRegions = 8;  // each is a build
};

struct AbVariant {
    std::string name;  // "plan", "fp16", "region-01-fp16"
    std::string description;
    double predictedMs = 0.0;
};

struct AbScripts {
    std::vector<AbVariant> variants;
    ContestedRegions contested;
};

// Writes DIR (created when missing) and what it holds; every file atomically.
Result<AbScripts> writeAbScripts(const AbScriptsInput& input);

}  // namespace ql
