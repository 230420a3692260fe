#pragma once
// Shared pieces of the CLI subcommands: exit codes, error printing, model loading.
#include <memory>
#include <string>

#include "core/common/status.h"
#include "core/model/model.h"

namespace ql::cli {

// The exit codes are part of the CLI contract (DESIGN.md).
enum ExitCode : int {
    kExitOk = 0,        // success
    kExitFindings = 1,  // the check found problems at the fail level
    kExitBadInput = 2,  // bad usage or bad input
};

// Prints "quantlens-cli: <message>" on one line on stderr.
void printError(const std::string& message);
int failWith(const Status& status);

// Loads a model, printing the error when it cannot be used.
std::unique_ptr<Model> loadModelOrReport(const std::string& path);

}  // namespace ql::cli
