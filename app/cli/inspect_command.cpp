// quantlens-cli inspect MODEL [--json]
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/common/json_util.h"
#include "core/model/model_summary.h"

namespace ql::cli {

namespace {

struct InspectOptions {
    std::string model;
    bool json = false;
};

int runInspect(const InspectOptions& options) {
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    const ModelSummary summary = summarize(*model);
    if (options.json)
        std::cout << dumpJson(toJson(summary)) << std::endl;
    else
        std::cout << toText(summary);
    return kExitOk;
}

}  // namespace

void addInspectCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<InspectOptions>();
    auto* cmd = app.add_subcommand("inspect", "Summarise a model: inputs, outputs, ops, parameters, MACs, Q/DQ");
    cmd->add_option("MODEL", options->model, "ONNX model file")->required();
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->callback([options, &exitCode] { exitCode = runInspect(*options); });
}

}  // namespace ql::cli
