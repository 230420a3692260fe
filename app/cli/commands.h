#pragma once
// Each subcommand registers itself on the CLI11 app and sets the exit code when it runs.
#include <CLI/CLI.hpp>

namespace ql::cli {

void addInspectCommand(CLI::App& app, int& exitCode);
void addLintCommand(CLI::App& app, int& exitCode);
void addConformanceCommand(CLI::App& app, int& exitCode);
void addRunCommand(CLI::App& app, int& exitCode);
void addBenchCommand(CLI::App& app, int& exitCode);
void addCalibrateCommand(CLI::App& app, int& exitCode);
void addCompareCommand(CLI::App& app, int& exitCode);
void addQuantizeCommand(CLI::App& app, int& exitCode);
void addTuneCommand(CLI::App& app, int& exitCode);
void addEngineCommand(CLI::App& app, int& exitCode);
void addPredictCommand(CLI::App& app, int& exitCode);
void addFitGpuCommand(CLI::App& app, int& exitCode);
void addFoldCommand(CLI::App& app, int& exitCode);

}  // namespace ql::cli
