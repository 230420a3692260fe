// quantlens-cli: everything the window does, for scripts and CI pipelines.
#include <iostream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"

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
