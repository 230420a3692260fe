#include "app/cli/data_options.h"

#include <filesystem>

#include "core/export/scale_import.h"

namespace ql::cli {

Result<std::unique_ptr<DataSource>> openDataOption(const Graph& graph, const std::vector<std::string>& options,
                                                   const DataLimits& limits) {
    const std::vector<InputSpec> inputs = inputSpecs(graph);
    std::vector<DataSpec> specs;
    for (const std::string& option : options) {
        DataSpec spec;
        spec.path = option;
        const auto eq = option.find('=');
        bool named = false;
        if (eq != std::string::npos)
            for (const InputSpec& input : inputs)
                if (input.name == option.substr(0, eq)) {
                    spec = {input.name, option.substr(eq + 1), {}};
                    named = true;
                }
        // NAME=PATH with a NAME the model lacks (a path never holds '=' in practice): say so, not "no such file".
        if (eq != std::string::npos && eq > 0 && !named && !std::filesystem::exists(option)) {
            std::string names;
            for (const InputSpec& input : inputs) names += (names.empty() ? "" : ", ") + input.name;
            return invalidArgument("--data '" + option + "': the model has no input '" + option.substr(0, eq) +
                                   "' (its inputs: " + names + ")");
        }
        specs.push_back(std::move(spec));
    }
    return openDataSource(inputs, specs, limits);
}

void addDataLimitsOption(CLI::App& command, DataLimits& limits) {
    command
        .add_option_function<uint64_t>(
            "--max-decoded-mb", [&limits](uint64_t mb) { limits.maxDecodedBytes = mb << 20; },
            "Largest .npz member or image decoded in memory, in MB (default " +
                std::to_string(kDefaultMaxDecodedBytes >> 20) + ")")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
}

Result<CalibrationResult> readCalibrationOption(const Graph& graph, const std::string& path) {
    QL_ASSIGN_OR_RETURN(ImportedScales imported, importScales(graph, path));
    return std::move(imported.calibration);
}

}  // namespace ql::cli
