#pragma once
// Reading back what the scripts of `quantize --ab-scripts` built (ab_scripts.h) on the user's GPU: the engine reports
// each variant's script wrote beside its ONNX file, as samples for the GPU profile's fit (gpu_profile_fit.h). Serves
// `quantlens-cli fit-gpu DIR` and the window's File > Import > A/B Builds Folder..., which also takes the GPU, the
// TensorRT version and the typing from the folder's manifest, fits, and says which A/B predictions were wrong.
#include <optional>
#include <string>
#include <vector>

#include "core/common/status.h"
#include "core/engine/ab_comparison.h"
#include "core/engine/gpu_profile_fit.h"

namespace ql {

// The (model, layers, profile) triples of a folder `quantize --ab-scripts` wrote, in name order; `notRun` gets the
// models whose reports are not beside them (their script did not run). Fails when there is none with its reports.
struct AbFolderReports {
    std::vector<FitReportFiles> reports;
    std::vector<std::string> notRun;
};
Result<AbFolderReports> abFolderReports(const std::string& folder);

// One engine as a sample of the fit: its layer information with the profile's times laid onto the layers the model
// predicts. `trt`: the version the engine was built with ("8.6", "10", "11"; empty: 11 for the 11.x report schema,
// else 10); `typing`: "strong", "weak" or empty for the version's.
Result<FitSample> loadFitSample(const FitReportFiles& files, const std::string& trt, const std::string& typing);

// A folder's builds, fitted and compared: the profile of the GPU the manifest names (continued from `refine` when it
// is of that GPU, fitted before; else from the table's terms), the A/B outcomes, and the models left out.
struct AbImport {
    GpuProfile fitted;
    std::vector<AbOutcome> outcomes;
    std::vector<std::string> notRun;
};
Result<AbImport> importAbFolder(const std::string& folder, const GpuProfile* refine = nullptr);

}  // namespace ql
