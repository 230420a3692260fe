#pragma once
// Runs the built quantlens-cli (QL_CLI_PATH, set per CLI test target) and captures exit code and output.
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace ql::test {

inline ProcessResult runCli(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {QL_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProcess(argv);
}

}  // namespace ql::test
