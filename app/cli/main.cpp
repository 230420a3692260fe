// quantlens-cli: everything the window does, for scripts and CI pipelines.
#include <algorithm>
#include <iostream>
#include <string_view>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"

namespace {

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

// An unknown first word ("inspct") is named with the closest command, instead of CLI11's "A subcommand is required".
bool reportUnknownCommand(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return false;
    const std::string word = argv[1];
    std::string closest;
    size_t best = 3;  // at most two edits away counts as a typo
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->get_name() == word) return false;
        if (const size_t d = editDistance(word, command->get_name()); d < best) {
            best = d;
            closest = command->get_name();
        }
    }
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
