#include "app/cli/gpu_profile_options.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/engine/gpu_specs.h"

namespace ql::cli {

namespace {

// The project's "gpu_profile", when `calib` is a project holding one.
Result<std::optional<GpuProfile>> projectGpuProfile(const std::string& calib) {
    if (!calib.ends_with(".qlproj")) return std::optional<GpuProfile>();
    auto project = readJsonFile(calib, "QuantLens project");
    if (!project || !project->is_object() || memberString(*project, "format") != "quantlens-project" ||
        !project->contains("gpu_profile"))
        return std::optional<GpuProfile>();
    QL_ASSIGN_OR_RETURN(GpuProfile profile, gpuProfileFromJson(project->at("gpu_profile"), calib + " (gpu_profile)"));
    profile.file = calib;
    return std::optional<GpuProfile>(std::move(profile));
}

}  // namespace

Result<GpuProfile> chosenGpuProfile(const std::string& gpu, const std::string& profileFile, const std::string& calib) {
    if (!gpu.empty() && !profileFile.empty())
        return invalidArgument("--gpu and --gpu-profile: give one (a profile names its GPU)");
    if (!profileFile.empty()) return loadGpuProfile(profileFile);
    if (gpu.empty()) {
        QL_ASSIGN_OR_RETURN(auto kept, projectGpuProfile(calib));
        if (kept) {
            std::cerr << calib << ": a QuantLens project: using its GPU profile (" << kept->gpu.name
                      << (kept->fit ? ", fitted" : "") << "; --gpu / --gpu-profile override)" << std::endl;
            return std::move(*kept);
        }
        return invalidArgument("choose the GPU to time the engine on: --gpu NAME (known: " + knownGpuNames() +
                               ") or --gpu-profile FILE");
    }
    const GpuSpec* spec = findGpu(gpu);
    if (spec == nullptr) return invalidArgument("--gpu " + gpu + ": unknown GPU (known: " + knownGpuNames() + ")");
    return defaultGpuProfile(*spec);
}

Result<std::optional<GpuProfile>> optionalGpuProfile(const std::string& gpu, const std::string& profileFile,
                                                     const std::string& calib) {
    if (gpu.empty() && profileFile.empty()) {
        QL_ASSIGN_OR_RETURN(auto kept, projectGpuProfile(calib));
        if (!kept) return std::optional<GpuProfile>();
    }
    QL_ASSIGN_OR_RETURN(GpuProfile profile, chosenGpuProfile(gpu, profileFile, calib));
    return std::optional<GpuProfile>(std::move(profile));
}

void addGpuOptions(CLI::App& command, std::string& gpu, std::string& profileFile, const std::string& purpose) {
    command.add_option("--gpu", gpu, "The GPU " + purpose + ", from the table (" + knownGpuNames() + ")");
    command.add_option("--gpu-profile", profileFile,
                       "Instead of --gpu, a GPU profile (JSON, docs/performance-model.md: a GPU of the table with "
                       "fitted terms, `fit-gpu` writes it); default: the one a project given as --calib keeps");
}

}  // namespace ql::cli
