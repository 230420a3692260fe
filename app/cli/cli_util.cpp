#include "app/cli/cli_util.h"

#include <algorithm>
#include <iostream>
#include <thread>

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

}  // namespace ql::cli
