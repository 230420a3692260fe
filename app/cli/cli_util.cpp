#include "app/cli/cli_util.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/common/json_depth.h"
#include "core/common/json_util.h"

#include "core/export/carried_model.h"
#include "core/export/qoperator_import.h"

namespace ql::cli {

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
    return std::move(model).value();
}

std::unique_ptr<Model> loadFloatFormOrReport(const std::string& path) {
    auto model = loadModelOrReport(path);
    if (!model || !hasQOperatorNodes(model->graph())) return model;
    auto carried = carriedModel(std::move(model));
    if (!carried) {
        printError(carried.status().message());
        return nullptr;
    }
    std::cerr << path << ": ONNX Runtime operator-form model, working on its float import: " << carried->qoperatorImport
              << std::endl;
    return std::move(carried->model);
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
    if (calib.ends_with(".qlproj")) {
        std::ifstream in(calib, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        // A file that does not read as a project is left to the --calib reader, which names the problem.
        if (checkJsonDepth(text.str(), calib).isOk()) project = nlohmann::json::parse(text.str(), nullptr, false);
    }
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
