// quantlens-cli fold MODEL --fix NAME=VALUE[,NAME=VALUE...] -o OUT.onnx [--json]
// Fixes graph inputs to constant values and folds what follows from them: an If on a fixed input becomes the nodes of
// the branch it takes (core/export/input_folding.h). Silero VAD with --fix sr=16000 has its layers in the main
// graph, where lint, calibrate, tune and quantize reach them. The output is written whole or not at all.
// Exit: 0, 2 on bad usage or bad input (an unknown input, a value of the wrong type, a model that cannot be read).
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/common/json_util.h"
#include "core/export/input_folding.h"

namespace ql::cli {
namespace {

struct FoldOptions {
    std::string model;
    std::string fix;
    std::string output;
    bool json = false;
};

int runFold(const FoldOptions& options) {
    auto model = loadModelOrReport(options.model);
    if (!model) return kExitBadInput;
    auto fixed = parseFixedInputs(*model, options.fix);
    if (!fixed) return failWith(fixed.status());
    auto folded = foldFixedInputs(*model, *fixed);
    if (!folded) return failWith(folded.status());
    if (Status saved = saveFoldedModel(*folded, options.output); !saved.isOk()) return failWith(saved);
    if (options.json) {
        nlohmann::json out = {{"output", options.output},
                              {"folded_ifs", folded->foldedIfs},
                              {"nodes_before", folded->nodesBefore},
                              {"nodes_after", folded->nodesAfter}};
        std::cout << dumpJson(out) << std::endl;
        return kExitOk;
    }
    std::cout << options.output << ": " << folded->nodesAfter << " node(s) in the main graph (was "
              << folded->nodesBefore << ")";
    if (folded->foldedIfs.empty()) {
        std::cout << "; no If followed from the fixed inputs" << std::endl;
        return kExitOk;
    }
    std::cout << "; folded:";
    for (const std::string& text : folded->foldedIfs) std::cout << " " << text;
    std::cout << std::endl;
    return kExitOk;
}

}  // namespace

void addFoldCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<FoldOptions>();
    auto* cmd = app.add_subcommand(
        "fold", "Fix inputs to constants and fold what follows: an If on a fixed input becomes the branch it takes");
    cmd->add_option("MODEL", options->model, "ONNX model file")->required();
    cmd->add_option("--fix", options->fix, "NAME=VALUE[,NAME=VALUE...]: a number, or a .npy file (sr=16000)")
        ->required();
    cmd->add_option("-o,--output", options->output, "Folded model to write (OUT.onnx)")->required();
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->callback([options, &exitCode] { exitCode = runFold(*options); });
}

}  // namespace ql::cli
