#include "app/cli/cli_util.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <thread>

#include "core/common/json_file.h"
#include "core/common/json_util.h"

#include "core/exec/observed_costs.h"
#include "core/export/carried_model.h"
#include "core/export/qoperator_import.h"

namespace ql::cli {

namespace {

// MACs from the shapes a run sees where shape inference could not reach them; a failed run leaves inference's.
void measureCosts(Model& model) {
    (void)measureLayerCosts(model, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closestName(const std::string& word, const std::vector<std::string>& names) {
    std::string closest;
    size_t best = 3;  // at most two edits away counts as a typo
    for (const std::string& name : names) {
        if (const size_t d = editDistance(word, name); d < best) {
            best = d;
            closest = name;
        }
    }
    return closest;
}

void printError(const std::string& message) {
    std::string line = message;
    for (char& c : line)
        if (c == '\n') c = ' ';
    std::cerr << "quantlens-cli: " << line << std::endl;
}

int failWith(const Status& status) {
    printError(status.message());
    return kExitBadInput;
}

std::unique_ptr<Model> loadModelOrReport(const std::string& path) {
    auto model = Model::load(path);
    if (!model) {
        printError(model.status().message());
        return nullptr;
    }
    measureCosts(**model);
    return std::move(model).value();
}

std::unique_ptr<Model> loadFloatFormOrReport(const std::string& path) {
    return floatFormOrReport(loadModelOrReport(path));
}

// The float form of `model` with what it carries (carried_model.h), its costs measured, and `path: <saying>` on
// stderr (`saying` may read the carried form); nullopt, with the error printed, when it cannot be made.
template <typename Saying>
std::optional<CarriedModel> carriedFormOrReport(std::unique_ptr<Model> model, Saying saying) {
    const std::string path = model->path();
    auto carried = carriedModel(std::move(model));
    if (!carried) {
        printError(carried.status().message());
        return std::nullopt;
    }
    std::cerr << path << ": " << saying(*carried) << std::endl;
    measureCosts(*carried->model);
    return std::move(carried).value();
}

std::unique_ptr<Model> floatFormOrReport(std::unique_ptr<Model> model, std::optional<PrecisionPlan>* carriedPlan) {
    if (!model || !hasQOperatorNodes(model->graph())) return model;
    auto carried = carriedFormOrReport(std::move(model), [](const CarriedModel& c) {
        return "ONNX Runtime operator-form model, working on its float import: " + c.qoperatorImport;
    });
    if (!carried) return nullptr;
    if (carriedPlan) *carriedPlan = std::move(carried->plan);
    return std::move(carried->model);
}

std::unique_ptr<Model> planSubjectOrReport(std::unique_ptr<Model> model, bool planGiven,
                                           std::optional<CalibrationResult>& carriedScales) {
    if (!model || !planGiven || !carriesPrecisions(*model)) return model;
    auto carried = carriedFormOrReport(std::move(model), [](const CarriedModel&) {
        return "the model carries its own precisions; --plan applies to its FP32 form, as `quantize --plan` "
               "re-exports it";
    });
    if (!carried) return nullptr;
    carriedScales = std::move(carried->scales);
    return std::move(carried->model);
}

Result<PrecisionPlan> requestedPlan(const Model& model, const std::string& planPath,
                                    const std::optional<PrecisionPlan>& operatorFormPlan) {
    if (!planPath.empty()) return PrecisionPlan::load(model.graph(), planPath);
    if (operatorFormPlan) return *operatorFormPlan;
    return writtenPlan(model);
}

void addCarriedScales(std::optional<CalibrationResult>& scales, std::optional<CalibrationResult> carried) {
    if (!carried) return;
    if (scales)
        applyCarriedScales(*scales, *carried);
    else
        scales = std::move(carried);
}

void addThreadsOption(CLI::App& command, int& threads) {
    threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    command
        .add_option("--threads", threads, "CPU threads (default: the machine's cores, " + std::to_string(threads) + ")")
        ->check(CLI::Range(1, 1024));
}

void addProgressFlag(CLI::App& command, bool& progress) {
    command.add_flag("--progress", progress,
                     "Report progress (phase, samples, time left) on stderr even when it is not a terminal");
}

void adoptProjectSettings(const std::string& calib, std::string& plan, std::string& trt, std::string& typing) {
    nlohmann::json project;
    // A file that does not read as a project is left to the --calib reader, which names the problem.
    if (calib.ends_with(".qlproj"))
        if (auto read = readJsonFile(calib, "QuantLens project")) project = std::move(*read);
    const bool isProject = project.is_object() && memberString(project, "format") == "quantlens-project";
    std::string taken;
    if (isProject && plan.empty() && project.contains("plan") && project["plan"].is_object()) {
        plan = calib;
        taken = "its precision plan";
    }
    const std::string projectTrt = isProject ? memberString(project, "trt") : std::string();
    if (trt.empty() && typing.empty() && !projectTrt.empty()) {
        trt = projectTrt;
        typing = memberString(project, "typing");
        taken += (taken.empty() ? "" : " and ") + std::string("its target, TensorRT ") + projectTrt +
                 (typing.empty() ? "" : " " + typing + "ly typed");
    }
    if (trt.empty()) trt = "10";
    if (!taken.empty())
        std::cerr << calib << ": a QuantLens project: using " << taken << " (--plan / --trt / --typing override)"
                  << std::endl;
}

}  // namespace ql::cli
