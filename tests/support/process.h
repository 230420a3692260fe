#pragma once
// Runs a command and captures its exit code, stdout and stderr (for the CLI tests).
#include <string>
#include <vector>

namespace ql::test {

struct ProcessResult {
    int exitCode = -1;  // 128 + signal when killed by a signal
    std::string out;
    std::string err;
};

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdinText = {});

}  // namespace ql::test
