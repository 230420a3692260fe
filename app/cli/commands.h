#pragma once
// Each subcommand registers itself on the CLI11 app and sets the exit code when it runs.
#include <CLI/CLI.hpp>

namespace ql::cli {

void addInspectCommand(CLI::App& app, int& exitCode);

}  // namespace ql::cli
