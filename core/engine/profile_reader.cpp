#include "core/engine/profile_reader.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/engine/report_file.h"

namespace ql {

namespace {

using nlohmann::json;

std::optional<double> numberMember(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

// The per-inference time: averageMs; older profiles without it give timeMs over `count` runs.
std::optional<double> averageTime(const json& entry, std::optional<double> count) {
    if (auto average = numberMember(entry, "averageMs")) return average;
    const auto total = numberMember(entry, "timeMs");
    if (total && count && *count > 0) return *total / *count;
    return std::nullopt;
}

}  // namespace

Result<std::vector<ProfileEntry>> profileFromJson(const json& root, const std::string& label) {
    if (!root.is_array())
        return invalidArgument(label + ": not a profile; expected the JSON array trtexec writes with --exportProfile");
    std::vector<ProfileEntry> entries;
    std::optional<double> count;
    for (size_t i = 0; i < root.size(); ++i) {
        const json& entry = root[i];
        if (!entry.is_object()) return invalidArgument(label + ": entry " + std::to_string(i) + " is not an object");
        if (entry.contains("count") && !entry.contains("name")) {
            count = numberMember(entry, "count");
            continue;
        }
        const auto name = entry.find("name");
        if (name == entry.end() || !name->is_string())
            return invalidArgument(label + ": entry " + std::to_string(i) + " has no \"name\"");
        const auto average = averageTime(entry, count);
        if (!average || *average < 0.0)
            return invalidArgument(label + ": entry " + std::to_string(i) + " ('" + name->get<std::string>() +
                                   "') has no \"averageMs\"");
        entries.push_back({name->get<std::string>(), *average, numberMember(entry, "medianMs")});
    }
    if (entries.empty()) return invalidArgument(label + ": the profile lists no layers");
    return entries;
}

Result<std::vector<ProfileEntry>> readProfile(const std::string& path, const std::string& option) {
    QL_ASSIGN_OR_RETURN(const json root, readReportJson(path, option));
    return profileFromJson(root, option + " " + path);
}

Status applyProfile(EngineReport& report, const std::vector<ProfileEntry>& profile, const std::string& label) {
    std::unordered_map<std::string, size_t> byName;
    for (size_t i = 0; i < report.layers.size(); ++i) byName.emplace(report.layers[i].name, i);
    std::vector<EngineLayer> merged;
    std::vector<bool> used(report.layers.size(), false);
    size_t next = 0;  // layers of the report not yet placed
    size_t foreign = 0;
    for (const ProfileEntry& entry : profile) {
        const auto it = byName.find(entry.name);
        if (it == byName.end() || used[it->second]) {
            EngineLayer extra;
            extra.name = entry.name;
            extra.fromProfileOnly = true;
            extra.timeMs = entry.averageMs;
            if (extra.isReformat())
                extra.type = "Reformat";
            else
                ++foreign;
            merged.push_back(std::move(extra));
            continue;
        }
        // Keep the report's own order: layers the profile skips go before the next one it names.
        for (; next < it->second; ++next) {
            if (used[next]) continue;
            merged.push_back(report.layers[next]);
            used[next] = true;
        }
        EngineLayer layer = report.layers[it->second];
        layer.timeMs = entry.averageMs;
        used[it->second] = true;
        merged.push_back(std::move(layer));
    }
    for (; next < report.layers.size(); ++next)
        if (!used[next]) merged.push_back(report.layers[next]);
    if (foreign * 2 > profile.size())
        return invalidArgument(label + ": " + std::to_string(foreign) + " of its " + std::to_string(profile.size()) +
                               " layers are not in " + report.layersFile +
                               "; give the profile written for the same engine");
    report.layers = std::move(merged);
    return Status::ok();
}

}  // namespace ql
