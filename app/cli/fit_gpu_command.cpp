// quantlens-cli fit-gpu (--gpu NAME | --gpu-profile FILE) -o OUT.json [--trt 8.6|10|11] [--typing strong|weak]
//                       [--project P.qlproj] [--json] REPORTS...
// Learns the user's GPU (issue 28, item 3; core/engine/gpu_profile_fit.h): the per-layer times of engines built on
// it are laid onto the predicted layers of their models, the efficiency and overhead terms of each layer class are
// fitted, and the GPU profile is written with its fit quality (per-layer error, Spearman, total error, and with two
// or more reports the leave-one-out error). `predict --gpu-profile OUT.json` then uses it and says it is fitted.
// REPORTS: per engine, its ONNX model (.onnx) followed by its layer information (--exportLayerInfo) and profile
// (--exportProfile), told apart by their content; or a folder `quantize --ab-scripts` wrote, whose X.onnx files come
// with X.layers.json and X.profile.json once its scripts ran. --project also keeps the profile in a QuantLens project,
// where `predict --calib P.qlproj` and the window find it.
// Exit: 0, 2 on bad usage or a bad file (the message names it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "app/cli/gpu_profile_options.h"
#include "core/common/atomic_file.h"
#include "core/common/json_file.h"
#include "core/common/json_util.h"
#include "core/engine/ab_comparison.h"
#include "core/engine/ab_import.h"
#include "core/engine/ab_scripts.h"
#include "core/engine/gpu_profile_fit.h"
#include "core/engine/layer_info_reader.h"
#include "core/engine/profile_reader.h"
#include "core/engine/report_file.h"
#include "core/exec/observed_costs.h"
#include "core/export/carried_model.h"
#include "core/export/effective_plan.h"

namespace ql::cli {

namespace {

struct FitGpuCliOptions {
    std::string gpu;
    std::string gpuProfile;
    std::string output;
    std::string trt;
    std::string typing;
    std::string project;
    std::vector<std::string> reports;
    bool json = false;
};

bool isFolder(const std::string& path) {
    std::error_code error;
    return std::filesystem::is_directory(path, error);
}

// The (model, layers, profile) triples of a folder `quantize --ab-scripts` wrote; a model whose reports are not there
// yet (its script did not run) is named on stderr.
Result<std::vector<FitReportFiles>> folderReports(const std::string& folder) {
    QL_ASSIGN_OR_RETURN(AbFolderReports found, abFolderReports(folder));
    for (const std::string& model : found.notRun)
        std::cerr << model << ": no engine reports beside it (its script did not run?): left out" << std::endl;
    return std::move(found.reports);
}

// Models, each followed by its layer information and profile in either order (a JSON array is a profile), or
// folders of them.
Result<std::vector<FitReportFiles>> groupReports(const std::vector<std::string>& paths) {
    std::vector<FitReportFiles> reports;
    const auto complete = [&]() -> Status {
        if (reports.empty()) return Status::ok();
        const FitReportFiles& last = reports.back();
        if (last.layers.empty())
            return invalidArgument(last.model +
                                   ": no layer information after it (trtexec --exportLayerInfo=FILE "
                                   "--profilingVerbosity=detailed)");
        if (last.profile.empty())
            return invalidArgument(last.model + ": no profile after it (trtexec --exportProfile=FILE)");
        return Status::ok();
    };
    for (const std::string& path : paths) {
        if (isFolder(path)) {
            QL_RETURN_IF_ERROR(complete());
            QL_ASSIGN_OR_RETURN(auto found, folderReports(path));
            reports.insert(reports.end(), found.begin(), found.end());
            continue;
        }
        if (std::filesystem::path(path).extension() == ".onnx") {
            QL_RETURN_IF_ERROR(complete());
            reports.push_back({path, {}, {}});
            continue;
        }
        if (reports.empty() || (!reports.back().layers.empty() && !reports.back().profile.empty()))
            return invalidArgument(path +
                                   ": an engine report must follow the ONNX model it was built from "
                                   "(MODEL.onnx LAYERS.json PROFILE.json ...)");
        QL_ASSIGN_OR_RETURN(const nlohmann::json json, readReportJson(path, "report"));
        std::string& slot = json.is_array() ? reports.back().profile : reports.back().layers;
        if (!slot.empty())
            return invalidArgument(path + ": " + reports.back().model + " already has its " +
                                   (json.is_array() ? "profile " : "layer information ") + slot);
        slot = path;
    }
    QL_RETURN_IF_ERROR(complete());
    if (reports.empty()) return invalidArgument("give the engine reports to fit: MODEL.onnx LAYERS.json PROFILE.json");
    return reports;
}

std::string percent(double share) {
    return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
}

void printQuality(const GpuProfile& profile) {
    const FitQuality& fit = *profile.fit;
    std::cout << "GPU profile of " << profile.gpu.displayName << " fitted to " << fit.layers << " layers of "
              << fit.reports.size() << " engine report" << (fit.reports.size() == 1 ? "" : "s") << ":\n";
    for (const FitReportQuality& r : fit.perReport) {
        char line[160];
        std::snprintf(line, sizeof(line),
                      "  %3d layers, Spearman %s, median layer error %s, total %.3f ms measured, "
                      "%.3f predicted (%s off",
                      r.layers, r.spearman ? std::to_string(*r.spearman).substr(0, 4).c_str() : "-",
                      percent(r.medianLayerError).c_str(), r.measuredMs, r.predictedMs, percent(r.totalError).c_str());
        std::cout << line;
        if (r.leaveOneOutError) std::cout << "; " << percent(*r.leaveOneOutError) << " when left out of the fit";
        std::cout << "): " << r.files.layers << "\n";
    }
    std::cout << "Per layer: median error " << percent(fit.medianLayerError) << ", p90 " << percent(fit.p90LayerError)
              << "; lowest Spearman " << std::to_string(fit.spearman).substr(0, 4) << "; total error "
              << percent(fit.totalError);
    if (fit.leaveOneOutError) std::cout << ", leave-one-out " << percent(*fit.leaveOneOutError);
    std::cout << "\n";
}

// The project keeps the profile under "gpu_profile" (ui/project_file.h); the rest of it is left as it was.
Status keepInProject(const GpuProfile& profile, const std::string& path) {
    QL_ASSIGN_OR_RETURN(nlohmann::json project, readJsonFile(path, "QuantLens project", "--project " + path));
    if (!project.is_object() || memberString(project, "format") != "quantlens-project")
        return invalidArgument("--project " + path + ": not a QuantLens project (.qlproj)");
    project["gpu_profile"] = gpuProfileToJson(profile);
    return writeFileAtomically(path, dumpJson(project) + "\n");
}

int runFitGpu(const FitGpuCliOptions& options) {
    auto start = chosenGpuProfile(options.gpu, options.gpuProfile, "");
    if (!start) return failWith(start.status());
    auto grouped = groupReports(options.reports);
    if (!grouped) return failWith(grouped.status());
    std::vector<FitSample> samples;
    for (const FitReportFiles& files : *grouped) {
        auto sample = loadFitSample(files, options.trt, options.typing);
        if (!sample) return failWith(sample.status());
        samples.push_back(std::move(sample).value());
    }
    auto fitted = fitGpuProfile(*start, samples);
    if (!fitted) return failWith(fitted.status());
    if (Status s = saveGpuProfile(*fitted, options.output); !s.isOk()) return failWith(s);
    if (!options.project.empty())
        if (Status s = keepInProject(*fitted, options.project); !s.isOk()) return failWith(s);
    if (options.json) {
        std::cout << dumpJson(gpuProfileToJson(*fitted)) << std::endl;
        return kExitOk;
    }
    printQuality(*fitted);
    for (const std::string& folder : options.reports) {
        if (!isFolder(folder)) continue;
        auto outcomes = abOutcomes(folder, samples, *fitted);
        if (!outcomes) return failWith(outcomes.status());
        std::cout << abOutcomesText(*outcomes);
    }
    std::cout << options.output << ": written" << (options.project.empty() ? "" : ", and kept in " + options.project)
              << "; use it with `quantlens-cli predict MODEL --gpu-profile " << options.output << "`" << std::endl;
    return kExitOk;
}

}  // namespace

void addFitGpuCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<FitGpuCliOptions>();
    auto* cmd = app.add_subcommand(
        "fit-gpu", "Fit a GPU profile (the latency model's terms) to engine reports measured on your GPU");
    cmd->add_option("REPORTS", options->reports,
                    "Per engine: its ONNX model, then its layer information (trtexec --exportLayerInfo, with "
                    "--profilingVerbosity=detailed) and profile (--exportProfile); or a folder `quantize "
                    "--ab-scripts` wrote, after its scripts ran")
        ->required();
    cmd->add_option("--gpu", options->gpu, "The GPU the engines ran on, from the table (" + knownGpuNames() + ")");
    cmd->add_option("--gpu-profile", options->gpuProfile, "A GPU profile to refine (instead of --gpu)");
    cmd->add_option("-o,--output", options->output, "The fitted GPU profile to write (JSON)")->required();
    cmd->add_option("--trt", options->trt,
                    "TensorRT version the engines were built with: 8.6, 10 or 11 (default: 11 for the 11.x "
                    "schema, else 10)");
    cmd->add_option("--typing", options->typing, "How they were built: strong or weak (default: the version's)");
    cmd->add_option("--project", options->project,
                    "Also keep the profile in this QuantLens project (.qlproj), for later predictions");
    cmd->add_flag("--json", options->json, "Print the fitted profile (JSON) instead of the summary");
    cmd->callback([options, &exitCode] { exitCode = runFitGpu(*options); });
}

}  // namespace ql::cli
