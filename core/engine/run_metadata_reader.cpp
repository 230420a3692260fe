#include "core/engine/run_metadata_reader.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/engine/report_file.h"

namespace ql {

namespace {

using nlohmann::json;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

std::string valueText(const json& value) {
    return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

Result<TimingSummary> readTiming(const std::string& path, const std::string& option) {
    const std::string label = option + " " + path;
    QL_ASSIGN_OR_RETURN(const json root, readReportJson(path, option));
    if (!root.is_array() || root.empty())
        return invalidArgument(label + ": expected the JSON array trtexec writes with --exportTimes");
    std::vector<double> compute;
    std::vector<double> latency;
    for (size_t i = 0; i < root.size(); ++i) {
        const json& entry = root[i];
        const auto it = entry.is_object() ? entry.find("computeMs") : entry.end();
        if (!entry.is_object() || it == entry.end() || !it->is_number())
            return invalidArgument(label + ": inference " + std::to_string(i) + " has no \"computeMs\"");
        compute.push_back(it->get<double>());
        if (const auto l = entry.find("latencyMs"); l != entry.end() && l->is_number())
            latency.push_back(l->get<double>());
    }
    TimingSummary summary;
    summary.iterations = compute.size();
    summary.meanComputeMs = std::accumulate(compute.begin(), compute.end(), 0.0) / static_cast<double>(compute.size());
    summary.medianComputeMs = median(compute);
    if (latency.size() == compute.size()) summary.medianLatencyMs = median(latency);
    return summary;
}

Result<RunMetadata> readRunMetadata(const std::string& path, const std::string& option) {
    const std::string label = option + " " + path;
    QL_ASSIGN_OR_RETURN(const json root, readReportJson(path, option));
    if (!root.is_object()) return invalidArgument(label + ": expected a JSON object of sections");
    RunMetadata metadata;
    for (const auto& [section, values] : root.items()) {
        if (!values.is_object()) {
            metadata.emplace_back(section, valueText(values));
            continue;
        }
        for (const auto& [key, value] : values.items()) metadata.emplace_back(section + "." + key, valueText(value));
    }
    return metadata;
}

}  // namespace ql
