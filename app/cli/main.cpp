// quantlens-cli: everything the window does, for scripts and CI pipelines.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"

namespace {

// An unknown first word ("inspct") is named with the closest command, instead of CLI11's "A subcommand is required".
bool reportUnknownCommand(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return false;
    const std::string word = argv[1];
    std::vector<std::string> names;
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->get_name() == word) return false;
        names.push_back(command->get_name());
    }
    const std::string closest = ql::cli::closestName(word, names);
    ql::cli::printError("unknown command '" + word + "'" +
                        (closest.empty() ? "" : "; did you mean '" + closest + "'?") +
                        " (quantlens-cli --help lists the commands)");
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"QuantLens: put ONNX models on TensorRT in INT8", "quantlens-cli"};
    app.set_version_flag("--version", std::string("quantlens-cli ") + QL_VERSION);
    app.require_subcommand(1);
    int exitCode = ql::cli::kExitOk;
    ql::cli::addInspectCommand(app, exitCode);
    ql::cli::addLintCommand(app, exitCode);
    ql::cli::addConformanceCommand(app, exitCode);
    ql::cli::addRunCommand(app, exitCode);
    ql::cli::addBenchCommand(app, exitCode);
    ql::cli::addCalibrateCommand(app, exitCode);
    ql::cli::addCompareCommand(app, exitCode);
    ql::cli::addQuantizeCommand(app, exitCode);
    ql::cli::addTuneCommand(app, exitCode);
    ql::cli::addEngineCommand(app, exitCode);
    ql::cli::addPredictCommand(app, exitCode);
    ql::cli::addFitGpuCommand(app, exitCode);
    ql::cli::addFoldCommand(app, exitCode);
    if (reportUnknownCommand(app, argc, argv)) return ql::cli::kExitBadInput;
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);  // --help, --version
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return ql::cli::kExitBadInput;
    } catch (const std::exception& e) {
        ql::cli::printError(std::string("internal error: ") + e.what());
        return ql::cli::kExitBadInput;
    }
    return exitCode;
}
