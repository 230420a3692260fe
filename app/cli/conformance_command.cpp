// quantlens-cli conformance DIR... [--filter SUBSTRING] [--known-failures FILE] [--threads N] [--json]
// Runs ONNX backend test folders through the executor: one line per test, then a summary.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/cli/cli_util.h"
#include "app/cli/commands.h"
#include "core/exec/conformance.h"

namespace ql::cli {

namespace {

struct ConformanceCommandOptions {
    std::vector<std::string> dirs;
    std::string filter;
    std::string knownFailures;
    int threads = 1;
    bool json = false;
};

struct Tally {
    int passed = 0, failed = 0, skipped = 0, known = 0, fixed = 0;
};

// "test_name  reason" per line; blank lines and lines starting with '#' are ignored.
Result<std::map<std::string, std::string>> readKnownFailures(const std::string& path) {
    std::ifstream in(path);
    if (!in) return notFound("cannot open the known-failures file '" + path + "'");
    std::map<std::string, std::string> known;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name, reason;
        fields >> name;
        if (name.empty() || name[0] == '#') continue;
        std::getline(fields >> std::ws, reason);
        known[name] = reason;
    }
    return known;
}

// Applies the known-failures list; returns the status word to print.
std::string classify(ConformanceResult& result, const std::map<std::string, std::string>& known, Tally& tally) {
    const bool listed = known.count(result.name) > 0;
    switch (result.status) {
        case ConformanceStatus::Passed:
            ++tally.passed;
            if (!listed) return "pass";
            ++tally.fixed;
            result.reason = "listed as a known failure but passes now: remove it from the known-failures file";
            return "pass";
        case ConformanceStatus::Skipped:
            ++tally.skipped;
            return "skip";
        case ConformanceStatus::Failed:
            if (!listed) {
                ++tally.failed;
                return "fail";
            }
            ++tally.known;
            return "known";
    }
    return "?";
}

int runConformance(const ConformanceCommandOptions& options) {
    std::map<std::string, std::string> known;
    if (!options.knownFailures.empty()) {
        auto list = readKnownFailures(options.knownFailures);
        if (!list) return failWith(list.status());
        known = std::move(list).value();
    }
    std::vector<std::string> tests;
    for (const auto& dir : options.dirs) {
        auto found = findConformanceTests(dir);
        if (!found) return failWith(found.status());
        tests.insert(tests.end(), found->begin(), found->end());
    }
    Tally tally;
    nlohmann::json rows = nlohmann::json::array();
    ConformanceOptions runOptions;
    runOptions.threads = std::max(1, options.threads);
    for (const auto& test : tests) {
        if (std::filesystem::path(test).filename().string().find(options.filter) == std::string::npos) continue;
        ConformanceResult result = runConformanceTest(test, runOptions);
        const std::string status = classify(result, known, tally);
        if (options.json)
            rows.push_back({{"name", result.name}, {"status", status}, {"reason", result.reason}});
        else
            std::cout << status << "  " << result.name << (result.reason.empty() ? "" : ": " + result.reason)
                      << std::endl;
    }
    if (options.json) {
        nlohmann::json out = {
            {"tests", rows}, {"passed", tally.passed}, {"failed", tally.failed}, {"skipped", tally.skipped}};
        if (!options.knownFailures.empty()) out["known"] = tally.known;
        std::cout << out.dump(2) << std::endl;
    } else {
        std::cout << tally.passed << " passed, " << tally.failed << " failed, " << tally.skipped << " skipped";
        if (!options.knownFailures.empty())
            std::cout << ", " << tally.known << " known failures (" << tally.fixed << " listed but passing)";
        std::cout << std::endl;
    }
    return tally.failed > 0 ? kExitFindings : kExitOk;
}

}  // namespace

void addConformanceCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<ConformanceCommandOptions>();
    auto* cmd = app.add_subcommand("conformance", "Run ONNX backend test folders through the QuantLens executor");
    cmd->add_option("DIR", options->dirs, "A test folder (model.onnx + test_data_set_*) or a folder of them")
        ->required();
    cmd->add_option("--filter", options->filter, "Only run tests whose folder name contains SUBSTRING");
    cmd->add_option("--known-failures", options->knownFailures,
                    "File of 'test_name  reason' lines: these failures are reported as known, not failed");
    cmd->add_option("--threads", options->threads, "Threads per test")->check(CLI::Range(1, 256));
    cmd->add_flag("--json", options->json, "Print one JSON object");
    cmd->callback([options, &exitCode] { exitCode = runConformance(*options); });
}

}  // namespace ql::cli
