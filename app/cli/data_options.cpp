#include "app/cli/data_options.h"

#include <unistd.h>

#include <iostream>

namespace ql::cli {

Result<std::unique_ptr<DataSource>> openDataOption(const Graph& graph, const std::vector<std::string>& options) {
    const std::vector<InputSpec> inputs = inputSpecs(graph);
    std::vector<DataSpec> specs;
    for (const std::string& option : options) {
        DataSpec spec;
        spec.path = option;
        const auto eq = option.find('=');
        if (eq != std::string::npos)
            for (const InputSpec& input : inputs)
                if (input.name == option.substr(0, eq)) spec = {input.name, option.substr(eq + 1), {}};
        specs.push_back(std::move(spec));
    }
    return openDataSource(inputs, specs);
}

ProgressFn terminalProgress(const std::string& what) {
    if (!isatty(STDERR_FILENO)) return {};
    return [what](int64_t done, int64_t total) {
        std::cerr << "\r" << what << " " << done << "/" << total << " samples" << std::flush;
    };
}

void endTerminalProgress() {
    if (isatty(STDERR_FILENO)) std::cerr << std::endl;
}

}  // namespace ql::cli
