#include "core/engine/ab_import.h"

#include <algorithm>
#include <filesystem>

#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/engine/ab_scripts.h"
#include "core/engine/gpu_specs.h"
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "core/exec/observed_costs.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"

namespace ql {

namespace {

Result<EngineReport> loadReport(const FitReportFiles& files) {
    QL_ASSIGN_OR_RETURN(EngineReport report, readLayerInfo(files.layers, "layer information"));
    QL_ASSIGN_OR_RETURN(const auto entries, readProfile(files.profile, "profile"));
    QL_RETURN_IF_ERROR(applyProfile(report, entries, "profile " + files.profile));
    report.profileFile = files.profile;
    return report;
}

}  // namespace

Result<AbFolderReports> abFolderReports(const std::string& folder) {
    std::vector<std::filesystem::path> models;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
        if (entry.path().extension() == ".onnx") models.push_back(entry.path());
    if (error) return invalidArgument(folder + ": cannot list the folder (" + error.message() + ")");
    std::sort(models.begin(), models.end());
    AbFolderReports found;
    for (const auto& model : models) {
        const std::string stem = (model.parent_path() / model.stem()).string();
        FitReportFiles files{model.string(), abLayersFile(stem), abProfileFile(stem)};
        if (std::filesystem::exists(files.layers, error) && std::filesystem::exists(files.profile, error))
            found.reports.push_back(std::move(files));
        else
            found.notRun.push_back(model.string());
    }
    if (found.reports.empty())
        return invalidArgument(folder +
                               ": no model with its engine reports (X.onnx with X.layers.json and "
                               "X.profile.json): run the scripts `quantize --ab-scripts` wrote there first");
    return found;
}

Result<FitSample> loadFitSample(const FitReportFiles& files, const std::string& trt, const std::string& typing) {
    QL_ASSIGN_OR_RETURN(const EngineReport report, loadReport(files));
    QL_ASSIGN_OR_RETURN(std::unique_ptr<Model> model, Model::load(files.model));
    // The shapes of dynamic dims as one inference sees them (MACs, bytes); a model that cannot run keeps its own.
    (void)measureLayerCosts(*model);
    const std::string version = !trt.empty() ? trt : report.schema == LayerInfoSchema::Trt11 ? "11" : "10";
    QL_ASSIGN_OR_RETURN(const TrtTarget target, trtTargetOption(version, typing));
    // Where the report says nothing of a node: what the model carries (Q/DQ, float16), else the default placement.
    QL_ASSIGN_OR_RETURN(const PrecisionPlan fallback, writtenPlan(*model));
    return fitSample(model->graph(), fallback, report, target, files);
}

Result<AbImport> importAbFolder(const std::string& folder, const GpuProfile* refine) {
    const std::string manifestPath = (std::filesystem::path(folder) / kAbManifest).string();
    QL_ASSIGN_OR_RETURN(const nlohmann::json manifest, readJsonFile(manifestPath, "A/B scripts manifest"));
    if (!manifest.is_object() || memberString(manifest, "format") != "quantlens-ab-scripts")
        return invalidArgument(manifestPath + ": not the manifest `quantize --ab-scripts` writes");
    const std::string gpu = memberString(manifest, "gpu");
    const GpuSpec* spec = findGpu(gpu);
    if (spec == nullptr)
        return invalidArgument(manifestPath + ": GPU '" + gpu + "' is not in the table (" + knownGpuNames() + ")");
    const GpuProfile profile = refine && refine->gpu.name == spec->name ? *refine : defaultGpuProfile(*spec);
    QL_ASSIGN_OR_RETURN(const AbFolderReports found, abFolderReports(folder));
    std::vector<FitSample> samples;
    for (const FitReportFiles& files : found.reports) {
        QL_ASSIGN_OR_RETURN(FitSample sample,
                            loadFitSample(files, memberString(manifest, "trt"), memberString(manifest, "typing")));
        samples.push_back(std::move(sample));
    }
    AbImport imported;
    QL_ASSIGN_OR_RETURN(imported.fitted, fitGpuProfile(profile, samples));
    QL_ASSIGN_OR_RETURN(imported.outcomes, abOutcomes(folder, samples, imported.fitted));
    imported.notRun = found.notRun;
    return imported;
}

}  // namespace ql
