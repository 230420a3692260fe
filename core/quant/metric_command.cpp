#include "core/quant/metric_command.h"

#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "core/data/npy.h"

namespace ql {
namespace {

constexpr const char* kPlaceholder = "{outputs}";
constexpr const char* kIndicesName = "sample_indices";

std::string shellQuoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A fresh, empty folder under the system's temporary folder.
Result<std::filesystem::path> freshFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "quantlens-metric-XXXXXX").string();
    if (!mkdtemp(pattern.data())) return ioError("cannot create a temporary folder for the metric command's outputs");
    return std::filesystem::path(pattern);
}

// The last non-empty line of `text`, parsed as a finite number.
std::optional<double> lastNumber(const std::string& text) {
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string::npos) return std::nullopt;
    const size_t begin = text.find_last_of('\n', end) == std::string::npos ? 0 : text.find_last_of('\n', end) + 1;
    const std::string line = text.substr(begin, end + 1 - begin);
    char* parsed = nullptr;
    const double value = std::strtod(line.c_str(), &parsed);
    while (parsed && (*parsed == ' ' || *parsed == '\t')) ++parsed;
    if (!parsed || parsed == line.c_str() || *parsed != '\0' || !std::isfinite(value)) return std::nullopt;
    return value;
}

// The outputs and sample_indices.npy; an output that would overwrite that file is refused by name.
Status writeOutputs(const std::filesystem::path& folder, const NamedTensors& outputs,
                    const std::vector<int64_t>& sampleIndices) {
    for (const auto& [name, tensor] : outputs)
        if (npyFileName(name) == npyFileName(kIndicesName))
            return invalidArgument("--metric-command: the model's output '" + name + "' would be written as " +
                                   npyFileName(kIndicesName) +
                                   ", the file that holds the sample indices; rename that output in the model");
    QL_RETURN_IF_ERROR(writeNamedNpy(folder.string(), outputs));
    const auto rows = static_cast<int64_t>(sampleIndices.size());
    return writeNpy((folder / npyFileName(kIndicesName)).string(),
                    Tensor::fromVector(DataType::Int64, {rows}, sampleIndices));
}

Result<double> runMetric(const std::string& command, const NamedTensors& outputs,
                         const std::vector<int64_t>& sampleIndices) {
    QL_ASSIGN_OR_RETURN(const std::filesystem::path folder, freshFolder());
    struct Cleanup {
        std::filesystem::path path;
        ~Cleanup() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    } cleanup{folder};
    QL_RETURN_IF_ERROR(writeOutputs(folder, outputs, sampleIndices));
    std::string line = command;
    for (size_t at; (at = line.find(kPlaceholder)) != std::string::npos;)
        line.replace(at, std::string(kPlaceholder).size(), shellQuoted(folder.string()));
    std::fflush(nullptr);
    FILE* pipe = popen(line.c_str(), "r");
    if (!pipe) return ioError("--metric-command: cannot start '" + command + "'");
    std::string printed;
    std::array<char, 4096> buffer{};
    for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) printed.append(buffer.data(), n);
    const int status = pclose(pipe);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return invalidArgument("--metric-command '" + command + "' failed (exit status " +
                               std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                               "); run it by hand on a folder of outputs (quantlens-cli run --out) to see why");
    const std::optional<double> value = lastNumber(printed);
    if (!value)
        return invalidArgument("--metric-command '" + command + "' printed no number on its last line (it printed '" +
                               printed.substr(0, 200) + "'); it must print one number, higher is better");
    return *value;
}

}  // namespace

Result<OutputMetricFn> metricCommand(const std::string& command) {
    if (command.find(kPlaceholder) == std::string::npos)
        return invalidArgument("--metric-command '" + command +
                               "' has no {outputs}: write where the output folder "
                               "goes, e.g. 'python3 score.py {outputs}'");
    return OutputMetricFn([command](const NamedTensors& outputs, const std::vector<int64_t>& sampleIndices) {
        return runMetric(command, outputs, sampleIndices);
    });
}

}  // namespace ql
